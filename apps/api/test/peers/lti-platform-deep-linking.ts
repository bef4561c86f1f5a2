import { jwtVerify, type JWTPayload } from 'jose';
import {
  escapeHtml,
  mediaType,
  nextId,
  readBody,
  sendHtml,
  urls,
  violation,
  type Exchange,
  type LineItemRecord,
  type PlatformCore,
  type RecordedDeepLink,
} from './lti-platform-core.ts';
import { CLAIM, DeepLinkingResponseJwt, describeIssues, type LtiResourceLinkItem } from './lti-shapes.ts';

/*
 * DL "Deep linking response message": the tool's browser posts a `JWT` form field to the
 * deep_link_return_url of the request. Like an LMS, the platform then adds each LTI resource link to
 * the course and, when the item declares a `lineItem` (and the request accepted line items), creates
 * the gradebook column bound to the new link (AGS "Line Item Declaration through Content Item
 * Message"), so later launches of that link carry its `lineitem` URL.
 */

function page(status: number, title: string, detail: string): string {
  return `<!doctype html><html lang="en"><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<h1>${escapeHtml(title)}</h1>${status === 200 ? detail : `<p role="alert">${escapeHtml(detail)}</p>`}</html>`;
}

/** Verifies the response with the tool's keys (SEC §5.2: iss its client_id, aud this issuer). */
async function verifiedPayload(core: PlatformCore, jwt: string, clientId: string): Promise<JWTPayload> {
  const tool = core.tools.get(clientId);
  if (!tool) throw new Error(`no tool ${clientId}`);
  const { payload } = await jwtVerify(jwt, tool.keys, {
    algorithms: ['RS256'],
    issuer: clientId,
    audience: core.issuer,
    requiredClaims: ['iat', 'exp', 'nonce'],
    maxTokenAge: '10m',
  });
  return payload;
}

function createLink(core: PlatformCore, contextId: string, item: LtiResourceLinkItem, withLineItem: boolean) {
  const link = { id: nextId('link'), contextId, title: item.title, url: item.url, custom: item.custom };
  core.resourceLinks.set(link.id, link);
  if (!withLineItem || !item.lineItem) return { id: link.id, title: link.title, url: link.url };
  const declared = item.lineItem;
  const record: LineItemRecord = {
    id: nextId('lineitem'),
    contextId,
    item: {
      label: declared.label ?? item.title ?? 'Untitled',
      scoreMaximum: declared.scoreMaximum,
      resourceId: declared.resourceId,
      tag: declared.tag,
      resourceLinkId: link.id,
      startDateTime: item.submission?.startDateTime,
      endDateTime: item.submission?.endDateTime,
    },
    results: new Map(),
  };
  core.lineItems.set(record.id, record);
  return { id: link.id, title: link.title, url: link.url, lineItemUrl: urls.lineItem(core, record) };
}

export async function deepLinkReturn(core: PlatformCore, exchange: Exchange): Promise<void> {
  const { req, res } = exchange;
  const where = 'deep linking response';
  const launch = core.launches.get(exchange.params[0] ?? '');
  const settings = launch?.deepLinking;
  if (!launch || !settings) {
    violation(core, where, `posted to ${exchange.url.pathname}, which no deep linking request named`);
    return sendHtml(res, 404, page(404, 'Not found', 'No deep linking request has this return URL.'));
  }
  const refuse = (problems: string[]) => {
    for (const problem of problems) violation(core, where, problem);
    sendHtml(res, 400, page(400, 'The tool sent an invalid response', problems.join('; ')));
  };
  if (mediaType(req) !== 'application/x-www-form-urlencoded') {
    return refuse([`content type ${JSON.stringify(mediaType(req))} is not a form post`]);
  }
  const jwt = new URLSearchParams(await readBody(req)).get('JWT');
  if (!jwt) return refuse(['no JWT form field']);
  let payload: JWTPayload;
  try {
    payload = await verifiedPayload(core, jwt, launch.clientId);
  } catch (error) {
    return refuse([`JWT refused: ${error instanceof Error ? error.message : String(error)}`]);
  }
  const parsed = DeepLinkingResponseJwt.safeParse(payload);
  if (!parsed.success) return refuse(describeIssues(parsed.error));
  const message = parsed.data;
  const items = message[CLAIM.contentItems] ?? [];
  const acceptTypes: string[] = settings.acceptTypes ?? ['ltiResourceLink'];
  const problems: string[] = [];
  if (message[CLAIM.deploymentId] !== launch.deploymentId) {
    problems.push(`deployment_id ${message[CLAIM.deploymentId]} is not the request's ${launch.deploymentId}`);
  }
  if (core.usedDeepLinkNonces.has(message.nonce)) problems.push(`nonce ${message.nonce} was used before`);
  if (settings.data !== undefined && message[CLAIM.data] !== settings.data) {
    problems.push(`data ${JSON.stringify(message[CLAIM.data])} does not echo the request's ${settings.data}`);
  }
  if (settings.acceptMultiple === false && items.length > 1) {
    problems.push(`${items.length} content items where the request accepted one`);
  }
  for (const item of items) {
    if (!acceptTypes.includes(item.type)) problems.push(`content item type ${item.type} was not accepted`);
  }
  if (problems.length > 0) return refuse(problems);
  core.usedDeepLinkNonces.add(message.nonce);

  const withLineItems = settings.acceptLineItem ?? true;
  const resourceLinks = items.flatMap((item) =>
    item.type === 'ltiResourceLink' ? [createLink(core, launch.contextId, item, withLineItems)] : [],
  );
  const recorded: RecordedDeepLink = {
    launchId: launch.id,
    contextId: launch.contextId,
    contentItems: items,
    resourceLinks,
    msg: message[CLAIM.msg],
    log: message[CLAIM.log],
    errormsg: message[CLAIM.errormsg],
    errorlog: message[CLAIM.errorlog],
  };
  core.deepLinks.push(recorded);
  const list = resourceLinks.map((link) => `<li>${escapeHtml(link.title ?? link.id)}</li>`).join('');
  const note = message[CLAIM.errormsg] ?? message[CLAIM.msg];
  sendHtml(
    res,
    200,
    page(200, 'Content added', `${note ? `<p>${escapeHtml(note)}</p>` : ''}<ul>${list}</ul>`),
  );
}
