import { useStore } from '@nanostores/react';
import { useEffect, useId, useRef, useState } from 'react';
import { commentsNewestFirst, type CachedComment } from '../../lib/comments.ts';
import { insertMention, mentionQuery, mentionSuggestions } from '../../lib/mention-suggestions.ts';
import {
  $comments,
  $commentSaving,
  $commentsLoad,
  $mentionable,
  COMMENTS_REFRESH_MS,
  deleteComment,
  editComment,
  loadComments,
  loadMentionable,
  saveComment,
} from '../../stores/comments.ts';
import { $userId } from '../../stores/session.ts';
import { $currentWorkspace } from '../../stores/workspaces.ts';
import DateTime from './DateTime.tsx';

/** A text box with Save and Clear (SPEC §5: Save disabled when blank, Clear when empty). */
function CommentForm({
  label,
  initial = '',
  saveLabel = 'Save',
  onSave,
  onCancel,
}: {
  label: string;
  initial?: string;
  saveLabel?: string;
  onSave: (text: string) => Promise<string | undefined>;
  onCancel?: () => void;
}) {
  const saving = useStore($commentSaving);
  const members = useStore($mentionable);
  const selfId = useStore($userId);
  const [text, setText] = useState(initial);
  const [caret, setCaret] = useState<number | undefined>(undefined);
  const [error, setError] = useState('');
  const box = useRef<HTMLTextAreaElement>(null);
  const id = useId();
  const query = caret === undefined ? undefined : mentionQuery(text.slice(0, caret));
  const suggestions = query === undefined ? [] : mentionSuggestions(query, members, selfId);

  const mention = (name: string) => {
    const next = insertMention(text, caret ?? text.length, name);
    setText(next.text);
    setCaret(next.caret);
    // Back to typing right after the inserted name.
    requestAnimationFrame(() => {
      box.current?.focus();
      box.current?.setSelectionRange(next.caret, next.caret);
    });
  };

  const save = async () => {
    setError('');
    const failed = await onSave(text);
    if (failed) setError(failed);
    else setText('');
  };

  return (
    <div className="dash-comment-form">
      <label htmlFor={`${id}-text`}>{label}</label>
      <textarea
        id={`${id}-text`}
        ref={box}
        rows={3}
        value={text}
        aria-describedby={`${id}-hint`}
        onChange={(event) => {
          setText(event.target.value);
          setCaret(event.target.selectionStart);
        }}
        onSelect={(event) => setCaret(event.currentTarget.selectionStart)}
      />
      {suggestions.length > 0 && (
        <div className="dash-comment-tools" role="group" aria-label="Mention a member">
          {suggestions.map((member) => (
            <button
              key={member.user_id}
              type="button"
              className="dash-link"
              aria-label={`Mention ${member.name}`}
              onClick={() => mention(member.name)}
            >
              @{member.name}
            </button>
          ))}
        </div>
      )}
      <p id={`${id}-hint`} className="dash-muted dash-comment-hint">
        Type @ and a member’s name to notify them by e-mail.
      </p>
      <div className="dash-comment-actions">
        <button type="button" className="dash-primary" disabled={!text.trim() || saving} onClick={() => void save()}>
          {saving ? 'Saving...' : saveLabel}
        </button>
        {onCancel ? (
          <button type="button" className="dash-quiet" onClick={onCancel}>
            Cancel
          </button>
        ) : (
          <button type="button" className="dash-quiet" disabled={text === ''} onClick={() => setText('')}>
            Clear
          </button>
        )}
      </div>
      {error && (
        <p role="alert" className="dash-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** One comment: author, time, text, and the actions the caller may take on it. */
function CommentEntry({
  storedFilename,
  comment,
  canReply,
}: {
  storedFilename: string;
  comment: CachedComment;
  canReply: boolean;
}) {
  const [mode, setMode] = useState<'view' | 'edit' | 'reply' | 'confirm-delete'>('view');
  const [error, setError] = useState('');
  const author = comment.id === undefined ? 'Kept in this browser' : (comment.author_name ?? '');
  const remove = async () => {
    const failed = await deleteComment(storedFilename, comment.id!);
    if (failed) setError(failed);
    setMode('view');
  };

  return (
    <>
      <p className="dash-comment-meta">
        <strong>{author}</strong> <DateTime at={comment.ts} />
        {comment.edited_ts ? ' (edited)' : ''}
      </p>
      {mode === 'edit' ? (
        <CommentForm
          label="Edit comment"
          initial={comment.text}
          onSave={async (text) => {
            const failed = await editComment(storedFilename, comment.id!, text);
            if (!failed) setMode('view');
            return failed;
          }}
          onCancel={() => setMode('view')}
        />
      ) : (
        <p className={comment.deleted ? 'dash-muted' : undefined}>
          {comment.deleted ? 'This comment was deleted.' : comment.text}
        </p>
      )}
      {mode === 'view' && comment.id !== undefined && (canReply || comment.can_edit || comment.can_delete) && (
        <div className="dash-comment-tools">
          {canReply && !comment.deleted && (
            <button type="button" className="dash-link" onClick={() => setMode('reply')}>
              Reply
            </button>
          )}
          {comment.can_edit && (
            <button type="button" className="dash-link" onClick={() => setMode('edit')}>
              Edit
            </button>
          )}
          {comment.can_delete && (
            <button type="button" className="dash-link" onClick={() => setMode('confirm-delete')}>
              Delete
            </button>
          )}
        </div>
      )}
      {mode === 'confirm-delete' && (
        <div className="dash-comment-tools" role="group" aria-label="Delete this comment?">
          <span>Delete this comment?</span>
          <button type="button" className="dash-link" onClick={() => void remove()}>
            Yes, delete
          </button>
          <button type="button" className="dash-link" onClick={() => setMode('view')}>
            No
          </button>
        </div>
      )}
      {mode === 'reply' && (
        <CommentForm
          label={`Reply to ${author}`}
          saveLabel="Save reply"
          onSave={async (text) => {
            const failed = await saveComment(storedFilename, text, comment.id);
            if (!failed) setMode('view');
            return failed;
          }}
          onCancel={() => setMode('view')}
        />
      )}
      {error && (
        <p role="alert" className="dash-error">
          {error}
        </p>
      )}
    </>
  );
}

/**
 * The image's comments, shared with the workspace: threads newest first, replies under them, and a box to
 * add one. The copy kept in this browser shows while the server answers, or when it cannot be reached.
 */
export default function CommentsPanel({ storedFilename }: { storedFilename: string }) {
  const book = useStore($comments);
  const load = useStore($commentsLoad);
  const workspace = useStore($currentWorkspace);
  const canWrite = workspace?.role !== 'viewer';
  const threads = commentsNewestFirst(book, storedFilename);
  const state = load?.storedFilename === storedFilename ? load : undefined;

  useEffect(() => {
    void loadMentionable();
  }, [workspace?.id]);

  useEffect(() => {
    void loadComments(storedFilename);
    // While open, and when the page is shown again, the panel shows what colleagues wrote meanwhile.
    const refresh = () => {
      if (document.visibilityState === 'visible') void loadComments(storedFilename);
    };
    const timer = setInterval(refresh, COMMENTS_REFRESH_MS);
    document.addEventListener('visibilitychange', refresh);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', refresh);
    };
  }, [storedFilename]);

  return (
    <section className="dash-comments" aria-labelledby="comments-title">
      <h3 id="comments-title">Comments</h3>
      {canWrite ? (
        <CommentForm label="Add a comment" onSave={(text) => saveComment(storedFilename, text)} />
      ) : (
        <p className="dash-muted">Your role in this workspace lets you read comments, not write them.</p>
      )}
      {state?.status === 'loading' && threads.length > 0 && (
        <p className="dash-muted" role="status">
          Loading comments… showing the copy saved in this browser.
        </p>
      )}
      {state?.status === 'offline' && (
        <p className="dash-error" role="status">
          {state.message}. {threads.length > 0 ? 'Showing the copy saved in this browser.' : ''}
        </p>
      )}
      {threads.length === 0 ? (
        <p className="dash-muted">{state?.status === 'loading' ? 'Loading comments…' : 'No comments yet.'}</p>
      ) : (
        <ol className="dash-comment-list" aria-label="Comments, newest first" tabIndex={0}>
          {threads.map((thread) => (
            <li
              key={thread.id ?? `${thread.ts}-${thread.text}`}
              className={thread.engine ? 'dash-comment-engine' : undefined}
            >
              <CommentEntry storedFilename={storedFilename} comment={thread} canReply={canWrite} />
              {thread.replies && thread.replies.length > 0 && (
                <ol className="dash-comment-replies" aria-label={`Replies to ${thread.author_name ?? 'this comment'}`}>
                  {thread.replies.map((reply) => (
                    <li key={reply.id ?? `${reply.ts}-${reply.text}`}>
                      <CommentEntry storedFilename={storedFilename} comment={reply} canReply={false} />
                    </li>
                  ))}
                </ol>
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
