import test from 'ava';
import { bodySlabs, ownBytesOf } from '../../src/http/bodySlabs.js';

test('bodies cut from a slab never share a byte, and keep what was written into them', (t) => {
  const allocate = bodySlabs(1024);
  // Sizes that do and do not end on a multiple of 8, filling several slabs.
  const bodies = [1, 7, 8, 100, 255, 256, 3, 200, 129, 64, 250, 17].flatMap((size) => [size, size]).map((size, i) => {
    const body = allocate(size);
    body.fill(i);
    return body;
  });
  bodies.forEach((body, i) => t.true(body.every((byte) => byte === i), `body ${i} of ${body.length} bytes kept its bytes`));
  t.true(bodies.some((body, i) => i > 0 && body.buffer === bodies[i - 1]!.buffer), 'bodies share slabs');
});

test('a body over a quarter of a slab gets a buffer of its own', (t) => {
  const allocate = bodySlabs(1024);
  const small = allocate(10);
  const large = allocate(257);
  t.is(large.length, 257);
  t.not(large.buffer, small.buffer);
  t.is(allocate(10).buffer, small.buffer, 'the slab goes on being used after it');
});

test('text encoded into a buffer of its own has the bytes Buffer.from gives it, however long (beyond the largest scratch buffer kept too) and whatever its characters', (t) => {
  const texts = ['', 'plain ASCII', 'São Paulo · 東京 · 𝔄', 'lone \uD800 surrogate', 'x'.repeat(70 * 1024), 'ção'.repeat(40 * 1024), 'é'.repeat(400 * 1024), 'after the largest'];
  const bodies = texts.map((text) => ownBytesOf(3 * text.length, (scratch) => scratch.write(text)));
  bodies.forEach((body, i) => t.deepEqual(body, Buffer.from(texts[i]!), `text ${i}`));
  t.is(new Set(bodies.filter((body) => body.length > 0).map((body) => body.buffer)).size, bodies.length - 1, 'no two bodies share memory');
  t.true(bodies.every((body) => body.byteOffset === 0 && body.buffer.byteLength === body.length), 'each exactly as long as its bytes');
});
