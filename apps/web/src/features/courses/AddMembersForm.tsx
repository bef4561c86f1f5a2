import { Button, FileButton, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { IconFileTypeCsv, IconUserPlus } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MemberAddRequest, MemberAddResult, MemberKind } from '@kadai/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../ui/errors.ts';
import { notifyError } from '../../ui/notify.ts';
import { addMembers } from './courses.api.ts';
import { courseKeys } from './courses.queries.ts';
import { MemberAddResultView } from './MemberAddResultView.tsx';

/** Larger files are surely not a class list; the server caps a request at 1 MB of CSV too. */
const MAX_CSV_BYTES = 1_000_000;

/** Institutional ids as typed or pasted: separated by spaces, commas, semicolons or line breaks. */
export function splitInstitutionalIds(text: string): string[] {
  return text.split(/[\s,;]+/).filter((id) => id !== '');
}

/**
 * Adds people by e-mail: typed or pasted (one or more a line, straight from a spreadsheet), or a .csv
 * file. The server reads an address from every cell, so both go as `csv`. Institutional ids (student
 * numbers, eppn) have a field of their own: a student number in a CSV cell is no e-mail to the server.
 */
export function AddMembersForm({ courseId, kind }: { courseId: number; kind: MemberKind }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [text, setText] = useState('');
  const [institutionalIds, setInstitutionalIds] = useState('');
  const [result, setResult] = useState<MemberAddResult | null>(null);

  const add = useMutation({
    mutationFn: (body: Partial<MemberAddRequest>) => addMembers(kind, courseId, body),
    onSuccess: async (added, body) => {
      setResult(added);
      setText('');
      // A CSV upload leaves the institutional ids typed meanwhile for their own submit.
      if (body.institutional_ids !== undefined) setInstitutionalIds('');
      await queryClient.invalidateQueries({ queryKey: courseKeys.members(courseId, kind) });
      await queryClient.invalidateQueries({ queryKey: courseKeys.detail(courseId) });
      await queryClient.invalidateQueries({ queryKey: courseKeys.lists() });
    },
    onError: (error) => notifyError(errorMessage(error, t), { title: t('members.addFailed') }),
  });

  const uploadCsv = async (file: File | null) => {
    if (!file) return;
    if (file.size > MAX_CSV_BYTES) {
      notifyError(t('members.csvTooLarge'));
      return;
    }
    add.mutate({ csv: await file.text() });
  };

  const ids = splitInstitutionalIds(institutionalIds);
  const submit = () =>
    add.mutate({
      ...(text.trim() === '' ? {} : { csv: text }),
      ...(ids.length === 0 ? {} : { institutional_ids: ids }),
    });

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} size="h4">
          {t(`members.${kind}.addTitle`)}
        </Title>
        <Text size="sm" c="dimmed">
          {t('members.addHelp')}
        </Text>
        <Textarea
          label={t('members.emails')}
          placeholder={'student1@example.com\nstudent2@example.com'}
          autosize
          minRows={3}
          maxRows={12}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
        />
        <Textarea
          label={t('members.institutionalIds')}
          description={t('members.institutionalIdsHelp')}
          placeholder={'s2600001\ntaro.yamada@example.ac.jp'}
          autosize
          minRows={2}
          maxRows={12}
          value={institutionalIds}
          onChange={(event) => setInstitutionalIds(event.currentTarget.value)}
          spellCheck={false}
          autoCapitalize="none"
        />
        <Group gap="sm">
          <Button
            leftSection={<IconUserPlus size={16} aria-hidden />}
            onClick={submit}
            disabled={text.trim() === '' && ids.length === 0}
            loading={add.isPending}
          >
            {t(`members.${kind}.add`)}
          </Button>
          <FileButton onChange={(file) => void uploadCsv(file)} accept=".csv,text/csv,text/plain">
            {(props) => (
              <Button
                {...props}
                variant="default"
                leftSection={<IconFileTypeCsv size={16} aria-hidden />}
                disabled={add.isPending}
              >
                {t('members.uploadCsv')}
              </Button>
            )}
          </FileButton>
        </Group>
        {result ? <MemberAddResultView result={result} onDismiss={() => setResult(null)} /> : null}
      </Stack>
    </Paper>
  );
}
