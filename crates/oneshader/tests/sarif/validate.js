// Validates SARIF logs against the official SARIF 2.1.0 JSON schema, which the npm
// package @microsoft/jest-sarif ships; ajv (its dependency) checks them.
//   node validate.js LOG.sarif...
// Exit 0 when every log is valid; otherwise the errors on stderr and exit 1.
'use strict';
const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');

const schemaPath = path.join(__dirname, 'node_modules', '@microsoft', 'jest-sarif', 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');
const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
// The schema is draft-04, which names its identifier `id`.
const ajv = new Ajv({ schemaId: 'id', allErrors: true, meta: false });
ajv.addMetaSchema(require('ajv/lib/refs/json-schema-draft-04.json'));
const validate = ajv.compile(schema);

let failed = false;
for (const file of process.argv.slice(2)) {
  const log = JSON.parse(fs.readFileSync(file, 'utf8'));
  if (!validate(log)) {
    failed = true;
    console.error(`${file}: not valid SARIF 2.1.0:\n${ajv.errorsText(validate.errors, { separator: '\n' })}`);
  }
}
process.exit(failed ? 1 : 0);
