import test from 'ava';
import { readFileSync } from 'node:fs';
import { normaliseForWorkKey } from '../../src/work-keys/workKeys.js';
import { randomSamples } from '../support/scriptSamples.js';
import { icuWorkKeys, uconvAvailable } from '../support/uconv.js';
import { note } from '../support/testNotes.js';

// Work keys for Han, kana, Hangul, Arabic and Hebrew text against ICU's (VuFind's) own. The fixture
// holds ICU's keys, written by tools/transliteration/generateScriptTables.ts with uconv, so this file
// needs no ICU; the last test asks a local uconv about strings nobody has tried before.

interface Sample {
  script: string;
  text: string;
  key: string;
}

const fixture = JSON.parse(readFileSync(new URL('../fixtures/icu-any-latin-samples.json', import.meta.url), 'utf8')) as {
  samples: Sample[];
};

const scripts = [...new Set(fixture.samples.map((sample) => sample.script))];

test('the fixture covers every script, words and mixed titles', (t) => {
  t.true(fixture.samples.length > 3000);
  t.deepEqual(new Set(scripts), new Set(['han', 'hiragana', 'katakana', 'hangul', 'arabic', 'hebrew', 'mixed', 'random']));
});

for (const script of scripts) {
  test(`normaliseForWorkKey agrees with ICU on every ${script} sample of the fixture`, (t) => {
    const samples = fixture.samples.filter((sample) => sample.script === script);
    const disagreements = samples
      .map((sample) => ({ text: sample.text, icu: sample.key, ours: normaliseForWorkKey(sample.text) }))
      .filter((result) => result.icu !== result.ours);
    note(t, `${samples.length - disagreements.length}/${samples.length} agree`);
    t.deepEqual(disagreements, []);
  });
}

const haveUconv = uconvAvailable();

(haveUconv ? test : test.skip)(
  haveUconv
    ? 'normaliseForWorkKey agrees with the local ICU (uconv) on a fresh random sample'
    : 'normaliseForWorkKey agrees with the local ICU on a fresh random sample — SKIPPED: uconv (ICU, Debian package icu-devtools) is not on the PATH',
  (t) => {
    const seed = Date.now() % 1_000_000_007;
    note(t, `seed ${seed} (randomSamples(${seed}, 4000) in test/support/scriptSamples.ts replays it)`);
    const texts = randomSamples(seed, 4000);
    const expected = icuWorkKeys(texts);
    const disagreements = texts
      .map((text, i) => ({ text, icu: expected[i], ours: normaliseForWorkKey(text) }))
      .filter((result) => result.icu !== result.ours);
    note(t, `${texts.length - disagreements.length}/${texts.length} agree`);
    t.deepEqual(disagreements.slice(0, 20), []);
  },
);
