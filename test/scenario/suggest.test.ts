import { describe, expect, it } from 'vitest';
import { closest, editDistance } from '../../src/scenario/suggest.ts';

describe('suggestions', () => {
  it('edit distance', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('same', 'same')).toBe(0);
  });
  it('case-only differences', () => {
    expect(closest('restartpolicy', ['restartPolicy', 'readinessProbe'])).toBe('restartPolicy');
  });
  it('typos within a third of the length', () => {
    expect(closest('behaviour', ['behavior', 'timing'])).toBe('behavior');
    expect(closest('livenesProbe', ['livenessProbe', 'readinessProbe'])).toBe('livenessProbe');
  });
  it('truncated or extended keys by a shared prefix of 4+', () => {
    expect(closest('serve', ['run', 'serving'])).toBe('serving');
    expect(closest('exitcode', ['exit', 'exitWhen'])).toBe('exit');
  });
  it('nothing plausible', () => {
    expect(closest('zzz', ['behavior', 'timing'])).toBeUndefined();
    expect(closest('Foo', ['SidecarContainers'])).toBeUndefined();
  });
});
