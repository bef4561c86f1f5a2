import { Select } from '@mantine/core';
import { supportedTimeZones } from '@kadai/contracts';
import { useState, type Ref } from 'react';

/** This browser's zones, with the chosen one first when the browser does not list it. */
function zoneChoices(current: string | null): string[] {
  const zones = supportedTimeZones();
  return current === null || zones.includes(current) ? zones : [current, ...zones];
}

/**
 * A time zone from the browser's list, searchable (a course's zone, a person's): the one picker of the
 * app. The list is made once, with the zone it started with.
 */
export function TimeZoneSelect({
  value,
  onChange,
  onBlur,
  ref,
  label,
  description,
  nothingFound,
  error,
}: {
  value: string | null;
  onChange: (zone: string) => void;
  onBlur?: () => void;
  ref?: Ref<HTMLInputElement>;
  label: string;
  description?: string;
  nothingFound: string;
  error?: string;
}) {
  const [data] = useState(() => zoneChoices(value));
  return (
    <Select
      label={label}
      description={description}
      data={data}
      searchable
      nothingFoundMessage={nothingFound}
      allowDeselect={false}
      value={value}
      onChange={(zone) => {
        if (zone !== null) onChange(zone);
      }}
      onBlur={onBlur}
      ref={ref}
      error={error}
    />
  );
}
