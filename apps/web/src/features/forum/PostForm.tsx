import { Button, Checkbox, Group, Menu, Stack, Text, TextInput } from '@mantine/core';
import { modals } from '@mantine/modals';
import { IconTemplate } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_FORUM_TITLE, type ForumFile, type ForumRecord, type ForumTemplate } from '@kadai/contracts';
import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { browserTimeZone, fromLocalInput, toLocalInput } from '../assignments/dates.ts';
import { useSession } from '../auth/session.ts';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError, notifySuccess } from '../../ui/notify.ts';
import { AttachmentTray } from './AttachmentTray.tsx';
import { createForumRecord, updateForumRecord } from './forum.api.ts';
import { forumKeys, invalidateForumLists, templatesQuery } from './forum.queries.ts';
import { MarkdownField } from './MarkdownField.tsx';
import { forumMessageKey, isBlank, scheduleProblem } from './post-form.ts';

/** What is being written: a topic (new or edited) or a comment on one. */
export type EditorTarget =
  | { kind: 'topic'; record: ForumRecord | null }
  | { kind: 'comment'; parentId: number; record: ForumRecord | null };

interface Values {
  title: string;
  content: string;
  attachments: ForumFile[];
  isAnnouncement: boolean;
  pinned: boolean;
  scheduled: boolean;
  /** `datetime-local` value in the browser's time zone. */
  scheduledAt: string;
}

function initialValues(record: ForumRecord | null, startAsAnnouncement: boolean): Values {
  const waiting = record !== null && record.published_at === null && record.scheduled_at !== null;
  return {
    title: record?.title ?? '',
    content: record?.content ?? '',
    attachments: record?.attachments ?? [],
    isAnnouncement: record?.is_announcement ?? startAsAnnouncement,
    pinned: record?.pinned ?? false,
    scheduled: waiting,
    scheduledAt: waiting ? toLocalInput(record.scheduled_at) : '',
  };
}

function sameValues(a: Values, b: Values): boolean {
  return (
    a.title === b.title &&
    a.content === b.content &&
    a.isAnnouncement === b.isAnnouncement &&
    a.pinned === b.pinned &&
    a.scheduled === b.scheduled &&
    a.scheduledAt === b.scheduledAt &&
    a.attachments.map((file) => file.id).join() === b.attachments.map((file) => file.id).join()
  );
}

export interface PostFormProps {
  courseId: number;
  target: EditorTarget;
  /** Editors of the course and staff: announcements, pinning and scheduling. */
  canManage: boolean;
  startAsAnnouncement?: boolean;
  onSaved: (record: ForumRecord) => void;
  /** Without it there is no Cancel button (the comment box under a post). */
  onCancel?: () => void;
  /** Set to "close, asking first when something would be lost" (the dialog's close button). */
  closeRef?: RefObject<() => void>;
}

/** The editor of posts and comments: Markdown with preview, templates, attachments, and for managers the announcement options. */
export function PostForm({
  courseId,
  target,
  canManage,
  startAsAnnouncement = false,
  onSaved,
  onCancel,
  closeRef,
}: PostFormProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const lang = useSession((s) => s.displayLang);
  const record = target.record;
  const isTopic = target.kind === 'topic';
  const isNew = record === null;
  const [initial] = useState(() => initialValues(record, startAsAnnouncement));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<{ title?: string; content?: string; schedule?: string }>({});
  const dirty = !sameValues(values, initial);
  const set = (patch: Partial<Values>) => setValues((previous) => ({ ...previous, ...patch }));

  // Announcement options: choosing the kind only when creating (the post page converts later); a
  // schedule only while the announcement has not gone out.
  const showManagerOptions = isTopic && canManage;
  const canSchedule = showManagerOptions && values.isAnnouncement && (isNew || record.published_at === null);
  const templates = useQuery({ ...templatesQuery(courseId, lang), enabled: isTopic && isNew });
  const offered = (templates.data ?? []).filter(
    (template) => template.for_announcement === values.isAnnouncement,
  );

  const confirm = (onConfirm: () => void) =>
    modals.openConfirmModal({
      title: t('forum.editor.discardTitle'),
      children: <Text size="sm">{t('common.confirmDiscard')}</Text>,
      labels: { confirm: t('forum.editor.discard'), cancel: t('common.cancel') },
      confirmProps: { color: 'red' },
      onConfirm,
    });

  const requestClose = () => {
    if (!onCancel) return;
    if (dirty) confirm(onCancel);
    else onCancel();
  };
  useEffect(() => {
    if (closeRef) closeRef.current = requestClose;
  });

  const applyTemplate = (template: ForumTemplate) => {
    const apply = () =>
      set({ content: template.content, title: values.title.trim() ? values.title : template.title });
    if (isBlank(values.content)) apply();
    else confirm(apply);
  };

  const save = useMutation({
    mutationFn: (scheduledAt: string | null) => {
      const attachments = values.attachments.map((file) => file.id);
      const title = isTopic ? values.title.trim() : '';
      if (isNew) {
        return createForumRecord({
          course: courseId,
          parent_record: target.kind === 'comment' ? target.parentId : null,
          title,
          content: values.content,
          is_announcement: showManagerOptions && values.isAnnouncement,
          pinned: showManagerOptions && values.pinned,
          scheduled_at: scheduledAt,
          attachments,
        });
      }
      // PATCH only what this writer may change: an author's edit must not unpin a post an editor pinned.
      return updateForumRecord(record.id, {
        ...(isTopic ? { title } : {}),
        content: values.content,
        attachments,
        ...(showManagerOptions ? { pinned: values.pinned } : {}),
        ...(canSchedule ? { scheduled_at: scheduledAt } : {}),
      });
    },
    onSuccess: (saved) => {
      void invalidateForumLists(queryClient, courseId);
      if (target.kind === 'comment') {
        void queryClient.invalidateQueries({ queryKey: forumKeys.record(target.parentId) });
      } else {
        queryClient.setQueryData(forumKeys.record(saved.id), saved);
      }
      notifySuccess(isNew ? t('forum.editor.posted') : t('forum.editor.saved'));
      onSaved(saved);
    },
    onError: (error) => {
      const key = forumMessageKey(error);
      notifyError(key ? t(key) : errorMessage(error, t), { title: t('forum.savePostFailed') });
    },
  });

  const submit = () => {
    const found: typeof errors = {};
    if (isTopic && !values.title.trim()) {
      found.title = t('validation.titleRequired', { max: MAX_FORUM_TITLE });
    }
    if (isBlank(values.content)) found.content = t('forum.postEmpty');
    const problem = canSchedule && values.scheduled ? scheduleProblem(values.scheduledAt) : null;
    if (problem) found.schedule = t(`forum.editor.schedule.${problem}`);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    save.mutate(canSchedule && values.scheduled ? fromLocalInput(values.scheduledAt) : null);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="sm">
        {isTopic ? (
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label={t('forum.editor.title')}
              required
              maxLength={MAX_FORUM_TITLE}
              value={values.title}
              error={errors.title}
              data-autofocus
              onChange={(event) => set({ title: event.currentTarget.value })}
              style={{ flex: 1, minWidth: 220 }}
            />
            {isNew && offered.length > 0 ? (
              <Menu position="bottom-end">
                <Menu.Target>
                  <Button variant="default" leftSection={<IconTemplate size={16} aria-hidden />}>
                    {t('forum.editor.template')}
                  </Button>
                </Menu.Target>
                <Menu.Dropdown>
                  {offered.map((template) => (
                    <Menu.Item key={template.id} onClick={() => applyTemplate(template)}>
                      {template.name}
                    </Menu.Item>
                  ))}
                </Menu.Dropdown>
              </Menu>
            ) : null}
          </Group>
        ) : null}

        <MarkdownField
          label={isTopic ? t('forum.editor.content') : t('forum.editor.comment')}
          value={values.content}
          onChange={(content) => set({ content })}
          error={errors.content ?? null}
        />

        <AttachmentTray
          courseId={courseId}
          files={values.attachments}
          onChange={(attachments) => set({ attachments })}
        />

        {showManagerOptions ? (
          <Stack gap="xs">
            {isNew ? (
              <Checkbox
                label={t('forum.editor.asAnnouncement')}
                checked={values.isAnnouncement}
                onChange={(event) => set({ isAnnouncement: event.currentTarget.checked })}
              />
            ) : null}
            <Checkbox
              label={t('forum.editor.pin')}
              checked={values.pinned}
              onChange={(event) => set({ pinned: event.currentTarget.checked })}
            />
            {canSchedule ? (
              <>
                <Checkbox
                  label={t('forum.editor.schedule.label')}
                  checked={values.scheduled}
                  onChange={(event) => set({ scheduled: event.currentTarget.checked })}
                />
                {values.scheduled ? (
                  <TextInput
                    type="datetime-local"
                    label={t('forum.editor.schedule.at')}
                    description={t('forum.editor.schedule.help', { zone: browserTimeZone() })}
                    required
                    value={values.scheduledAt}
                    error={errors.schedule}
                    onChange={(event) => set({ scheduledAt: event.currentTarget.value })}
                    maw={320}
                  />
                ) : null}
              </>
            ) : null}
          </Stack>
        ) : null}

        <Group justify="flex-end" gap="sm">
          {onCancel ? (
            <Button variant="default" onClick={requestClose}>
              {t('common.cancel')}
            </Button>
          ) : null}
          <Button type="submit" loading={save.isPending}>
            {isNew
              ? target.kind === 'comment'
                ? t('forum.editor.sendComment')
                : t('forum.editor.publish')
              : t('common.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
