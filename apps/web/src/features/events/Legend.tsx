import { useTranslation } from 'react-i18next';
import classes from './Calendar.module.css';
import { ENTRY_STYLES, LEGEND_ORDER } from './entry-style.ts';

/** What each colour and icon means, in words. */
export function Legend() {
  const { t } = useTranslation();
  return (
    <ul className={classes.legend} aria-label={t('calendar.legend')}>
      {LEGEND_ORDER.map((kind) => {
        const { color, icon: Icon } = ENTRY_STYLES[kind];
        return (
          <li key={kind} className={classes.legendItem} data-color={color}>
            <Icon size={16} className={classes.entryIcon} aria-hidden />
            {t(`calendar.kinds.${kind}`)}
          </li>
        );
      })}
    </ul>
  );
}
