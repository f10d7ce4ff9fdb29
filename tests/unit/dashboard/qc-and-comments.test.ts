import { describe, expect, it } from 'vitest';
import { addComment, commentsNewestFirst, parseCommentBook } from '../../../src/lib/comments.ts';
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
  it('adds trimmed comments and lists them newest first', () => {
    let book = addComment({}, 'a.png', ' first ', 1);
    book = addComment(book, 'a.png', 'second', 2);
    book = addComment(book, 'b.png', 'other', 3);
    expect(commentsNewestFirst(book, 'a.png').map((c) => c.text)).toEqual(['second', 'first']);
    expect(commentsNewestFirst(book, 'c.png')).toEqual([]);
  });
  it('ignores blank text', () => {
    const book = {};
    expect(addComment(book, 'a.png', '   ', 1)).toBe(book);
  });
  it('reads a stored book and tolerates garbage', () => {
    expect(parseCommentBook('{"a.png":[{"text":"x","ts":1},{"bad":true}]}')).toEqual({
      'a.png': [{ text: 'x', ts: 1 }],
    });
    expect(parseCommentBook('not json')).toEqual({});
    expect(parseCommentBook('[1,2]')).toEqual({});
    expect(parseCommentBook(undefined)).toEqual({});
  });
});
