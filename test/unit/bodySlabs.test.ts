import test from 'ava';
import { bodySlabs } from '../../src/http/bodySlabs.js';

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
