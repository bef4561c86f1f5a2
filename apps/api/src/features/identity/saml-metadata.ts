import { X509Certificate } from 'node:crypto';
import { DOMParser, type Element } from '@xmldom/xmldom';

/*
 * Reading a SAML IdP's metadata: its entity id, where to send AuthnRequests and LogoutRequests
 * (HTTP-Redirect), and its signing certificates (several during a rollover). This only reads where
 * things are; every signature check is node-saml's (saml.service.ts). The parser resolves no external
 * entities, so a metadata file cannot read files or reach hosts.
 */

const MD = 'urn:oasis:names:tc:SAML:2.0:metadata';
const DS = 'http://www.w3.org/2000/09/xmldsig#';
const REDIRECT = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  sloUrl: string | null;
  /** Base64 DER bodies, without PEM armour. */
  certificates: string[];
}

export class MetadataError extends Error {}

function children(parent: Element, ns: string, name: string): Element[] {
  const out: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType === 1) {
      const el = node as Element;
      if (el.namespaceURI === ns && el.localName === name) out.push(el);
    }
  }
  return out;
}

function descendants(parent: Element, ns: string, name: string): Element[] {
  return Array.from(parent.getElementsByTagNameNS(ns, name));
}

function redirectLocation(idp: Element, name: string): string | null {
  const service = children(idp, MD, name).find((s) => s.getAttribute('Binding') === REDIRECT);
  const location = service?.getAttribute('Location')?.trim();
  return location ? location : null;
}

function httpUrl(value: string, what: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new MetadataError(`The ${what} in the metadata is not a URL.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new MetadataError(`The ${what} in the metadata is not an http(s) URL.`);
  }
  return url.toString();
}

function signingCertificates(idp: Element): string[] {
  const certs: string[] = [];
  for (const key of children(idp, MD, 'KeyDescriptor')) {
    const use = key.getAttribute('use');
    if (use && use !== 'signing') continue;
    for (const x509 of descendants(key, DS, 'X509Certificate')) {
      const body = (x509.textContent ?? '').replace(/\s+/g, '');
      try {
        new X509Certificate(Buffer.from(body, 'base64'));
      } catch {
        throw new MetadataError('A signing certificate in the metadata cannot be read.');
      }
      if (!certs.includes(body)) certs.push(body);
    }
  }
  return certs;
}

function parse(xml: string): Element {
  let root: Element | null;
  try {
    const doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new MetadataError(message);
      },
    }).parseFromString(xml, 'text/xml');
    root = doc.documentElement;
  } catch {
    throw new MetadataError('The metadata is not well-formed XML.');
  }
  if (!root) throw new MetadataError('The metadata is empty.');
  return root;
}

/**
 * The IdP described by `xml`: an EntityDescriptor, or an EntitiesDescriptor (a federation's aggregate)
 * from which `entityId` picks one, or the only IdP in it.
 */
export function parseIdpMetadata(xml: string, entityId?: string): IdpMetadata {
  const root = parse(xml);
  if (
    root.namespaceURI !== MD ||
    !['EntityDescriptor', 'EntitiesDescriptor'].includes(root.localName ?? '')
  ) {
    throw new MetadataError('This is not SAML 2.0 metadata (no md:EntityDescriptor).');
  }
  const entities = root.localName === 'EntityDescriptor' ? [root] : descendants(root, MD, 'EntityDescriptor');
  const idps = entities.filter((e) => children(e, MD, 'IDPSSODescriptor').length > 0);
  const entity = entityId ? idps.find((e) => e.getAttribute('entityID') === entityId) : idps[0];
  if (!entity) {
    throw new MetadataError(
      entityId
        ? `The metadata has no identity provider ${entityId}.`
        : 'The metadata describes no identity provider.',
    );
  }
  if (!entityId && idps.length > 1) {
    throw new MetadataError(
      'The metadata describes several identity providers: give the entity id of yours.',
    );
  }
  const idp = children(entity, MD, 'IDPSSODescriptor')[0]!;
  const id = entity.getAttribute('entityID')?.trim();
  if (!id) throw new MetadataError('The metadata has no entityID.');
  const sso = redirectLocation(idp, 'SingleSignOnService');
  if (!sso) throw new MetadataError('The identity provider offers no HTTP-Redirect SingleSignOnService.');
  const slo = redirectLocation(idp, 'SingleLogoutService');
  const certificates = signingCertificates(idp);
  if (certificates.length === 0) throw new MetadataError('The metadata has no signing certificate.');
  return {
    entityId: id,
    ssoUrl: httpUrl(sso, 'SingleSignOnService'),
    sloUrl: slo ? httpUrl(slo, 'SingleLogoutService') : null,
    certificates,
  };
}

/** What the settings page shows of a certificate: never the key, only how to recognise it. */
export function describeCertificate(base64: string): {
  fingerprint_sha256: string;
  subject: string;
  not_after: string;
} {
  const cert = new X509Certificate(Buffer.from(base64, 'base64'));
  return {
    fingerprint_sha256: cert.fingerprint256,
    subject: cert.subject.replace(/\n/g, ', '),
    not_after: new Date(cert.validTo).toISOString(),
  };
}

export function toPem(base64: string): string {
  const lines = base64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
