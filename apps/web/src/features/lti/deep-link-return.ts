/**
 * Sends the answer of a deep-linking request back to the LMS as LTI 1.3 asks: the browser posts a
 * form to the platform's return URL with one field, `JWT`, the signed answer. The page is left for
 * the LMS's. Only an http(s) address is posted to; false otherwise.
 */
export function postToPlatform(returnUrl: string, jwt: string, doc: Document = document): boolean {
  if (!/^https?:\/\//i.test(returnUrl)) return false;
  const form = doc.createElement('form');
  form.method = 'post';
  form.action = returnUrl;
  form.hidden = true;
  const field = doc.createElement('input');
  field.type = 'hidden';
  field.name = 'JWT';
  field.value = jwt;
  form.append(field);
  doc.body.append(form);
  form.submit();
  return true;
}
