import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ForumRecord } from '@kadai/contracts';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { PostForm, type EditorTarget } from './PostForm.tsx';

/** The post editor in a dialog: a new topic, or an edit of a topic or a comment. */
export function PostEditorModal({
  courseId,
  target,
  canManage,
  startAsAnnouncement,
  onClose,
  onSaved,
}: {
  courseId: number;
  target: EditorTarget;
  canManage: boolean;
  startAsAnnouncement?: boolean;
  onClose: () => void;
  onSaved?: (record: ForumRecord) => void;
}) {
  const { t } = useTranslation();
  const isPhone = useMediaQuery('(max-width: 48em)');
  // The form decides whether closing needs a confirmation (it knows whether anything changed).
  const closeRef = useRef<() => void>(onClose);
  const title =
    target.kind === 'comment'
      ? t('forum.editor.editCommentTitle')
      : target.record === null
        ? t('forum.editor.newTitle')
        : t('forum.editor.editTitle');
  return (
    <Modal
      opened
      onClose={() => closeRef.current()}
      title={title}
      size="min(900px, 96vw)"
      fullScreen={isPhone}
      closeOnClickOutside={false}
    >
      <PostForm
        courseId={courseId}
        target={target}
        canManage={canManage}
        startAsAnnouncement={startAsAnnouncement}
        onCancel={onClose}
        closeRef={closeRef}
        onSaved={(record) => {
          onSaved?.(record);
          onClose();
        }}
      />
    </Modal>
  );
}
