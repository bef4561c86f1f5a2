import type { AttributeField } from '@kadai/contracts';
import { cleanText, emailOrNull } from '../../lib/outside-text.ts';

/*
 * Who the provider says the person is, read through the provider's attribute map. Values are plain
 * text from outside: control characters are dropped, lengths capped, and an e-mail that is not one
 * counts as none.
 */

export interface Person {
  externalId: string;
  email: string | null;
  firstName: string;
  lastName: string;
  firstNameJa: string;
  lastNameJa: string;
  institutionalId: string | null;
}

type Attributes = Record<string, unknown>;

/** The first non-empty value among `names` (a SAML attribute can carry several values). */
export function firstValue(attributes: Attributes, names: string[], max = 200): string | null {
  for (const name of names) {
    const raw = attributes[name];
    const values = Array.isArray(raw) ? raw : [raw];
    for (const v of values) {
      const text = typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;
      if (text === null) continue;
      const cleaned = cleanText(text, max);
      if (cleaned) return cleaned;
    }
  }
  return null;
}

/** Splits a display name: "Taro Yamada" (given first) or "山田 太郎" (family first). */
function split(display: string | null, familyFirst: boolean): { first: string; last: string } {
  if (!display) return { first: '', last: '' };
  const parts = display.split(/[\s\u3000]+/).filter(Boolean);
  if (parts.length < 2) return familyFirst ? { first: '', last: display } : { first: display, last: '' };
  return familyFirst
    ? { last: parts[0]!, first: parts.slice(1).join(' ') }
    : { first: parts.slice(0, -1).join(' '), last: parts.at(-1)! };
}

/** The person, or null when the stable id is missing (then nobody can be signed in). */
export function personFrom(
  attributes: Attributes,
  map: Record<AttributeField, string[]>,
  externalIdOverride?: string | null,
): Person | null {
  const externalId = externalIdOverride ?? firstValue(attributes, map.external_id, 500);
  if (!externalId) return null;
  const en = split(firstValue(attributes, map.display_name, 150), false);
  const ja = split(firstValue(attributes, map.ja_display_name, 150), true);
  return {
    externalId,
    email: emailOrNull(firstValue(attributes, map.email, 254)),
    firstName: firstValue(attributes, map.first_name, 150) ?? en.first,
    lastName: firstValue(attributes, map.last_name, 150) ?? en.last,
    firstNameJa: firstValue(attributes, map.ja_first_name, 150) ?? ja.first,
    lastNameJa: firstValue(attributes, map.ja_last_name, 150) ?? ja.last,
    institutionalId: firstValue(attributes, map.institutional_id, 200),
  };
}
