import { Badge } from '@mantine/core';
import { IconClockPlus } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { HintTooltip } from '../../ui/HintTooltip.tsx';

/**
 * "Extended for you" beside a date a student sees: the date is their own, from an extension. The word
 * says it, so colour is not the only signal; the tooltip says where the date comes from (its code
 * loads only when a badge shows).
 */
export function ExtendedBadge({ extended }: { extended: boolean }) {
  const { t } = useTranslation();
  if (!extended) return null;
  const hint = t('extensions.extendedForYouHint');
  return (
    <HintTooltip label={hint} multiline maw={280}>
      <Badge
        variant="light"
        color="grape"
        size="sm"
        leftSection={<IconClockPlus size={12} aria-hidden />}
        style={{ flexShrink: 0 }}
      >
        {t('extensions.extendedForYou')}
      </Badge>
    </HintTooltip>
  );
}
