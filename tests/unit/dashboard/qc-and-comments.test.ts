import { describe, expect, it } from 'vitest';
import { commentsNewestFirst, localOnlyNotes, parseCommentBook, withThreads } from '../../../src/lib/comments.ts';
import { extractQcText, qcErrorMessage } from '../../../src/lib/qc-text.ts';

describe('extractQcText', () => {
  it('reads an OpenAI-style message.content', () => {
    expect(extractQcText({ choices: [{ message: { content: 'Sharp. Confidence 90' } }] })).toBe('Sharp. Confidence 90');
    expect(extractQcText({ message: { content: 'Direct message' } })).toBe('Direct message');
  });
  it('joins text parts of a structured content list', () => {
    expect(extractQcText({ choices: [{ message: { content: [{ type: 'text', text: 'a' }, { text: 'b' }] } }] })).toBe(
      'a\nb',
    );
  });
  it('falls back to choice.text, generated_text, result, then a plain string', () => {
    expect(extractQcText({ choices: [{ text: 'from text' }] })).toBe('from text');
    expect(extractQcText({ generated_text: 'generated' })).toBe('generated');
    expect(extractQcText([{ generated_text: 'hf list' }])).toBe('hf list');
    expect(extractQcText({ result: 'result text' })).toBe('result text');
    expect(extractQcText('plain')).toBe('plain');
  });
  it('gives undefined when nothing holds text', () => {
    expect(extractQcText({})).toBeUndefined();
    expect(extractQcText({ choices: [{ message: { content: '  ' } }] })).toBeUndefined();
    expect(extractQcText(null)).toBeUndefined();
  });
});

describe('qcErrorMessage', () => {
  it('prefers detail, then message, then Unknown error', () => {
    expect(qcErrorMessage({ detail: 'Model offline' })).toBe('Model offline');
    expect(qcErrorMessage({ message: 'Bad gateway' })).toBe('Bad gateway');
    expect(qcErrorMessage({ error: { message: 'rate limited' } })).toBe('rate limited');
    expect(qcErrorMessage(undefined)).toBe('Unknown error');
  });
});

describe('comments', () => {
  const thread = (id: string, ts: number) => ({
    id,
    parent_id: null,
    author_id: 'u1',
    author_name: 'Ada',
    engine: false,
    text: id,
    ts,
    edited_ts: null,
    deleted: false,
    mentions: [],
    can_edit: true,
    can_delete: true,
    replies: [],
  });
  it('keeps the server threads per image and lists them newest first', () => {
    let book = withThreads({}, 'a.png', [thread('first', 1), thread('second', 2)]);
    book = withThreads(book, 'b.png', [thread('other', 3)]);
    expect(commentsNewestFirst(book, 'a.png').map((c) => c.text)).toEqual(['second', 'first']);
    expect(commentsNewestFirst(book, 'c.png')).toEqual([]);
  });
  it('tells notes kept only in this browser from the server copy and from [QC] results', () => {
    const book = { 'a.png': [thread('shared', 1), { text: 'old note', ts: 2 }, { text: '[QC] Pass', ts: 3 }] };
    expect(localOnlyNotes(book, 'a.png')).toEqual([{ text: 'old note', ts: 2 }]);
  });
  it('reads a stored book and tolerates garbage', () => {
    expect(
      parseCommentBook(
        '{"a.png":[{"text":"x","ts":1},{"bad":true},{"text":"y","ts":2,"replies":[{"text":"z","ts":3},5]}]}',
      ),
    ).toEqual({
      'a.png': [
        { text: 'x', ts: 1 },
        { text: 'y', ts: 2, replies: [{ text: 'z', ts: 3 }] },
      ],
    });
    expect(parseCommentBook('not json')).toEqual({});
    expect(parseCommentBook('[1,2]')).toEqual({});
    expect(parseCommentBook(undefined)).toEqual({});
  });
});
