/**
 * SHA-256 of a text's UTF-8, in base64url: the one digest the versions' ETags (src/versions/versionsValidators.ts)
 * and the records' content fingerprints (src/record/recordContent.ts) are made of. What is hashed is theirs.
 */
import * as crypto from 'node:crypto';

// crypto.hash (Node 20.12 on) hashes a string in one call, without a Hash object made and dropped; the
// package supports Node 20 releases before it (its type says it is always there). The same digest either way.
export const sha256Base64url: (text: string) => string = typeof (crypto.hash as unknown) === 'function'
  ? (text) => crypto.hash('sha256', text, 'base64url')
  : (text) => crypto.createHash('sha256').update(text).digest('base64url');
