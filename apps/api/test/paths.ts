import { fileURLToPath } from 'node:url';

export const TEMPLATE_DUMP = fileURLToPath(
  new URL('../../../.tmp/api-test-template.tar.gz', import.meta.url),
);
