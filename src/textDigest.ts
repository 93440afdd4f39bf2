/**
 * SHA-256 of a text's UTF-8, in base64url: the one digest the versions' ETags (src/versions/versionsValidators.ts)
 * and the records' content fingerprints (src/record/recordContent.ts) are made of. What is hashed is theirs.
 */
import * as crypto from 'node:crypto';

// crypto.hash hashes a string in one call, without a Hash object made and dropped (every Node the package
// supports has it: package.json engines).
export const sha256Base64url = (text: string): string => crypto.hash('sha256', text, 'base64url');
