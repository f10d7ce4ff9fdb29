import { describe, expect, it } from 'vitest';
import { insertMention, mentionQuery, mentionSuggestions } from '../../../src/lib/mention-suggestions.ts';

const members = [
  { user_id: 'a', name: 'Ada Admin' },
  { user_id: 'r', name: 'Rosalind Franklin' },
  { user_id: 'f', name: 'Frank Roe' },
];

describe('mention suggestions', () => {
  it('reads the name typed after an "@" at the caret, not inside a word or an address', () => {
    expect(mentionQuery('thanks @Ros')).toBe('Ros');
    expect(mentionQuery('@')).toBe('');
    expect(mentionQuery('mail ada@example')).toBeUndefined();
    expect(mentionQuery('@Ada done\nnext')).toBeUndefined();
  });

  it('suggests members by the start of their name or of a word of it, never the writer', () => {
    expect(mentionSuggestions('ro', members, 'a').map((m) => m.user_id)).toEqual(['r', 'f']);
    expect(mentionSuggestions('fr', members, 'a').map((m) => m.user_id)).toEqual(['r', 'f']);
    expect(mentionSuggestions('', members, 'a').map((m) => m.user_id)).toEqual(['r', 'f']);
    expect(mentionSuggestions('zz', members, 'a')).toEqual([]);
    expect(mentionSuggestions('Rosalind Franklin ', members, 'a')).toEqual([]);
  });

  it('replaces the typed part with the full name', () => {
    expect(insertMention('hi @ro and more', 6, 'Rosalind Franklin')).toEqual({
      text: 'hi @Rosalind Franklin  and more',
      caret: 22,
    });
  });
});
