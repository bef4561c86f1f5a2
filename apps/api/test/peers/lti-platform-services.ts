import { decodeJwt, jwtVerify } from 'jose';
import {
  authorize,
  contextOf,
  mediaType,
  nextId,
  paginate,
  randomToken,
  readBody,
  sendJson,
  sendOAuthError,
  urls,
  violation,
  type Exchange,
  type LineItemRecord,
  type PlatformCore,
} from './lti-platform-core.ts';
import {
  AgsLineItem,
  AgsScore,
  ClientAssertionJwt,
  ClientCredentialsRequest,
  MEDIA_TYPE,
  SCOPE,
  describeIssues,
} from './lti-shapes.ts';

/*
 * The services a tool calls with an access token: the token endpoint (SEC §4.1, RFC 7523 client
 * assertion), AGS line items, scores and results, and the NRPS membership container.
 */

/**
 * SEC §4.1–4.1.1: a client-credentials grant authenticated by the tool's signed assertion. Every
 * refusal is an RFC 6749 §5.2 error with HTTP 400, as SEC §4.1 requires.
 */
export async function tokenEndpoint(core: PlatformCore, exchange: Exchange): Promise<void> {
  const { req, res } = exchange;
  const where = 'token request';
  const request: { clientId?: string; scopes: string[] } = { scopes: [] };
  const refuse = (error: string, description: string) => {
    violation(core, where, description);
    core.tokenRequests.push({ ...request, status: 400 });
    sendOAuthError(res, 400, error, description);
  };
  if (mediaType(req) !== 'application/x-www-form-urlencoded') {
    return refuse('invalid_request', `content type ${JSON.stringify(mediaType(req))} is not a form post`);
  }
  const fields = Object.fromEntries(new URLSearchParams(await readBody(req)));
  request.scopes = (fields.scope ?? '').split(' ').filter(Boolean);
  if (fields.grant_type !== 'client_credentials') {
    return refuse('unsupported_grant_type', `grant_type ${JSON.stringify(fields.grant_type)}`);
  }
  const parsed = ClientCredentialsRequest.safeParse(fields);
  if (!parsed.success) return refuse('invalid_request', describeIssues(parsed.error).join('; '));
  const assertion = parsed.data.client_assertion;
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(assertion);
  } catch {
    return refuse('invalid_client', 'client_assertion is not a JWT');
  }
  // SEC §4.1.1: `sub` is the client_id of the tool (RFC 7523 §3 makes `iss` the same for client authentication).
  const clientId = typeof claims.sub === 'string' ? claims.sub : '';
  request.clientId = clientId;
  const tool = core.tools.get(clientId);
  if (!tool) return refuse('invalid_client', `unknown client ${JSON.stringify(clientId)}`);
  const shape = ClientAssertionJwt.safeParse(claims);
  if (!shape.success) return refuse('invalid_client', describeIssues(shape.error).join('; '));
  try {
    await jwtVerify(assertion, tool.keys, {
      algorithms: ['RS256'],
      issuer: clientId,
      subject: clientId,
      audience: core.tokenUrl,
      requiredClaims: ['iat', 'exp', 'jti'],
      maxTokenAge: '1h',
    });
  } catch (error) {
    return refuse('invalid_client', `assertion refused: ${error instanceof Error ? error.message : error}`);
  }
  // SEC §4.1.1: the jti is unique until the assertion's exp, after which it may be used again.
  const { jti, exp } = shape.data;
  const now = Math.floor(Date.now() / 1000);
  if ((core.usedJtis.get(jti) ?? 0) > now) return refuse('invalid_client', `jti ${jti} replayed`);
  core.usedJtis.set(jti, exp);
  // SEC "Managing Scopes": a scope the request did not name is never allocated.
  const granted = request.scopes.filter((scope) => tool.scopes.includes(scope));
  if (granted.length === 0) return refuse('invalid_scope', `none of ${request.scopes.join(' ')} is granted`);
  const accessToken = randomToken();
  core.accessTokens.set(accessToken, {
    clientId,
    scopes: granted,
    expiresAt: Date.now() + core.expiresIn * 1000,
  });
  core.tokenRequests.push({ ...request, status: 200 });
  res.setHeader('pragma', 'no-cache');
  sendJson(res, 200, {
    access_token: accessToken,
    token_type: 'Bearer',
    expires_in: core.expiresIn,
    scope: granted.join(' '),
  });
}

/** The JSON body of a request whose media type must be `type` (415 and a violation otherwise). */
async function jsonBody(core: PlatformCore, exchange: Exchange, where: string, type: string) {
  if (mediaType(exchange.req) !== type) {
    const description = `content type ${JSON.stringify(mediaType(exchange.req))} is not ${type}`;
    violation(core, where, description);
    sendJson(exchange.res, 415, { error: description });
    return undefined;
  }
  try {
    return { value: JSON.parse(await readBody(exchange.req)) as unknown };
  } catch {
    violation(core, where, 'the body is not JSON');
    sendJson(exchange.res, 400, { error: 'the body is not JSON' });
    return undefined;
  }
}

function badRequest(core: PlatformCore, exchange: Exchange, where: string, problems: string[], status = 400) {
  for (const problem of problems) violation(core, where, problem);
  sendJson(exchange.res, status, { error: problems.join('; ') });
}

/**
 * The Accept header of a GET, when the tool sends one, must allow the service's media type (or
 * JSON at large): AGS and NRPS answer only in theirs.
 */
function accepts(core: PlatformCore, exchange: Exchange, where: string, type: string): boolean {
  const accept = exchange.req.headers.accept;
  if (!accept || [type, 'application/json', '*/*', 'application/*'].some((t) => accept.includes(t)))
    return true;
  badRequest(core, exchange, where, [`Accept ${JSON.stringify(accept)} does not allow ${type}`], 406);
  return false;
}

const asJson = (core: PlatformCore, record: LineItemRecord) => ({
  ...record.item,
  id: urls.lineItem(core, record),
});

/** AGS "Line item service": the context's container (GET with filters and paging, POST to add). */
export async function lineItemsEndpoint(core: PlatformCore, exchange: Exchange): Promise<void> {
  const [contextId = ''] = exchange.params;
  const where = `${exchange.req.method} line items of ${contextId}`;
  if (exchange.req.method === 'GET') {
    if (!authorize(core, exchange, where, [SCOPE.lineItem, SCOPE.lineItemReadonly])) return;
    if (!accepts(core, exchange, where, MEDIA_TYPE.lineItemContainer)) return;
    const filter = exchange.url.searchParams;
    const matching = [...core.lineItems.values()].filter(
      ({ contextId: owner, item }) =>
        owner === contextId &&
        (!filter.has('resource_link_id') || item.resourceLinkId === filter.get('resource_link_id')) &&
        (!filter.has('resource_id') || item.resourceId === filter.get('resource_id')) &&
        (!filter.has('tag') || item.tag === filter.get('tag')),
    );
    const items = paginate(core, exchange, where, matching).map((record) => asJson(core, record));
    return sendJson(exchange.res, 200, items, MEDIA_TYPE.lineItemContainer);
  }
  if (!authorize(core, exchange, where, [SCOPE.lineItem])) return;
  const body = await jsonBody(core, exchange, where, MEDIA_TYPE.lineItem);
  if (!body) return;
  const parsed = AgsLineItem.safeParse(body.value);
  if (!parsed.success) return badRequest(core, exchange, where, describeIssues(parsed.error));
  const { id: _id, ...item } = parsed.data;
  const link = item.resourceLinkId ? core.resourceLinks.get(item.resourceLinkId) : undefined;
  if (item.resourceLinkId && link?.contextId !== contextId) {
    // AGS "resourceLinkId and binding a line item to a resource link": Not Found 404.
    return badRequest(
      core,
      exchange,
      where,
      [`no resource link ${item.resourceLinkId} in ${contextId}`],
      404,
    );
  }
  contextOf(core, contextId);
  const record: LineItemRecord = { id: nextId('lineitem'), contextId, item, results: new Map() };
  core.lineItems.set(record.id, record);
  sendJson(exchange.res, 201, asJson(core, record), MEDIA_TYPE.lineItem);
}

function lineItemOf(core: PlatformCore, exchange: Exchange, where: string): LineItemRecord | undefined {
  const [contextId, lineItemId = ''] = exchange.params;
  const record = core.lineItems.get(lineItemId);
  if (record && record.contextId === contextId) return record;
  badRequest(core, exchange, where, [`no line item ${lineItemId} in ${contextId}`], 404);
  return undefined;
}

/** AGS "Line item service": one line item (GET, PUT, DELETE). */
export async function lineItemEndpoint(core: PlatformCore, exchange: Exchange): Promise<void> {
  const { method } = exchange.req;
  const where = `${method} line item ${exchange.params[1]}`;
  const readonly = method === 'GET';
  if (
    !authorize(core, exchange, where, readonly ? [SCOPE.lineItem, SCOPE.lineItemReadonly] : [SCOPE.lineItem])
  ) {
    return;
  }
  const record = lineItemOf(core, exchange, where);
  if (!record) return;
  if (readonly) {
    if (!accepts(core, exchange, where, MEDIA_TYPE.lineItem)) return;
    return sendJson(exchange.res, 200, asJson(core, record), MEDIA_TYPE.lineItem);
  }
  if (method === 'DELETE') {
    core.lineItems.delete(record.id);
    exchange.res.writeHead(204).end();
    return;
  }
  const body = await jsonBody(core, exchange, where, MEDIA_TYPE.lineItem);
  if (!body) return;
  const parsed = AgsLineItem.safeParse(body.value);
  if (!parsed.success) return badRequest(core, exchange, where, describeIssues(parsed.error));
  const { id, ...item } = parsed.data;
  if (id !== undefined && id !== urls.lineItem(core, record)) {
    return badRequest(core, exchange, where, [`id ${id} is not the URL the PUT went to`]);
  }
  record.item = item;
  sendJson(exchange.res, 200, asJson(core, record), MEDIA_TYPE.lineItem);
}

/**
 * AGS "Score publish service". A score whose timestamp does not follow the last one on record for
 * the user is ignored, as the spec says the platform may ("It may just ignore the incoming score
 * update"); it is a violation all the same, as the tool MUST send strictly increasing timestamps.
 */
export async function scoresEndpoint(core: PlatformCore, exchange: Exchange): Promise<void> {
  const where = `score POST to line item ${exchange.params[1]}`;
  if (core.scoreOutage.count > 0) {
    core.scoreOutage.count -= 1;
    core.failedScorePosts += 1;
    const { status } = core.scoreOutage;
    if (status === 'drop') exchange.req.socket.destroy();
    else sendJson(exchange.res, status, { error: 'the gradebook is unavailable' });
    return;
  }
  if (!authorize(core, exchange, where, [SCOPE.score])) return;
  const record = lineItemOf(core, exchange, where);
  if (!record) return;
  const body = await jsonBody(core, exchange, where, MEDIA_TYPE.score);
  if (!body) return;
  const parsed = AgsScore.safeParse(body.value);
  if (!parsed.success) return badRequest(core, exchange, where, describeIssues(parsed.error));
  const score = parsed.data;
  const context = contextOf(core, record.contextId);
  const known =
    context.launched.has(score.userId) || context.members?.some((m) => m.user_id === score.userId);
  if (!known) {
    // AGS "userId": the `sub` of the user's launches; an LMS refuses a score for a stranger.
    return badRequest(
      core,
      exchange,
      where,
      [`userId ${score.userId} is no user of ${record.contextId}`],
      422,
    );
  }
  const last = record.results.get(score.userId);
  const applied = !last || Date.parse(score.timestamp) > Date.parse(last.timestamp);
  if (!applied) {
    violation(
      core,
      where,
      `timestamp ${score.timestamp} does not follow ${last?.timestamp} for ${score.userId}`,
    );
  } else {
    record.results.set(score.userId, score);
  }
  core.scores.push({ contextId: record.contextId, lineItemUrl: urls.lineItem(core, record), score, applied });
  exchange.res.writeHead(204).end();
}

/** AGS "Result Service": the current results, rescaled to the line item's scoreMaximum. */
export function resultsEndpoint(core: PlatformCore, exchange: Exchange): void {
  const where = `results of line item ${exchange.params[1]}`;
  if (!authorize(core, exchange, where, [SCOPE.resultReadonly])) return;
  const record = lineItemOf(core, exchange, where);
  if (!record || !accepts(core, exchange, where, MEDIA_TYPE.resultContainer)) return;
  const lineItemUrl = urls.lineItem(core, record);
  const userId = exchange.url.searchParams.get('user_id');
  const results = [...record.results.values()]
    .filter((score) => score.scoreGiven !== undefined && (userId === null || score.userId === userId))
    .map((score) => ({
      id: `${lineItemUrl}/results/${encodeURIComponent(score.userId)}`,
      scoreOf: lineItemUrl,
      userId: score.userId,
      resultScore: ((score.scoreGiven ?? 0) / (score.scoreMaximum ?? 1)) * record.item.scoreMaximum,
      resultMaximum: record.item.scoreMaximum,
      comment: score.comment,
    }));
  sendJson(exchange.res, 200, paginate(core, exchange, where, results), MEDIA_TYPE.resultContainer);
}

/**
 * NRPS "Membership service": the context's roster (set by setMembers, else everyone who launched),
 * filtered by `role` and paged by `limit` with a rel="next" Link header.
 */
export function membershipsEndpoint(core: PlatformCore, exchange: Exchange): void {
  const [contextId = ''] = exchange.params;
  const where = `memberships of ${contextId}`;
  if (!authorize(core, exchange, where, [SCOPE.contextMembershipReadonly])) return;
  if (!accepts(core, exchange, where, MEDIA_TYPE.membershipContainer)) return;
  const context = core.contexts.get(contextId);
  if (!context) return badRequest(core, exchange, where, [`no context ${contextId}`], 404);
  const role = exchange.url.searchParams.get('role');
  const members = (context.members ?? [...context.launched.values()]).filter(
    (member) => role === null || member.roles.some((r) => r === role || r.endsWith(`#${role}`)),
  );
  const container = {
    id: exchange.url.href,
    context: { id: context.id, label: context.label, title: context.title },
    members: paginate(core, exchange, where, members),
  };
  sendJson(exchange.res, 200, container, MEDIA_TYPE.membershipContainer);
}
