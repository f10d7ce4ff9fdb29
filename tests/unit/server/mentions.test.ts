import { describe, expect, it } from 'vitest';
import { mentionedIn } from '../../../server/modules/comments/mentions.ts';

const members = [
  { userId: 'ada', name: 'Ada' },
  { userId: 'ada-l', name: 'Ada Lovelace' },
  { userId: 'zoe', name: 'Zoë Ünal' },
];

describe('mentionedIn', () => {
  it('finds display names after "@", in any case, the longest first', () => {
    expect(mentionedIn('@ada lovelace and @ADA, see this', members)).toEqual(['ada-l', 'ada']);
    expect(mentionedIn('thanks @zoë ünal.', members)).toEqual(['zoe']);
  });

  it('ignores an "@" inside a word, a name that carries on, and repeats', () => {
    expect(mentionedIn('mail ada@Ada.org', members)).toEqual([]);
    expect(mentionedIn('@Adam was here', members)).toEqual([]);
    expect(mentionedIn('@Ada @Ada', members)).toEqual(['ada']);
    expect(mentionedIn('@ alone, @', members)).toEqual([]);
  });
});
