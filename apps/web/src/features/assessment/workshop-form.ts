import type { Workshop, WorkshopCreate, WorkshopStatus } from '@kadai/contracts';
import { fromLocalInput, toLocalInput } from '../assignments/dates.ts';

/** The workshop dialog's fields; dates are `datetime-local` values in the browser's time zone. */
export interface WorkshopFormValues {
  title: string;
  description: string;
  location: string;
  starts_at: string;
  ends_at: string;
  /** The skill's id as the Select holds it, or null. */
  skill: string | null;
  /** Invited students' ids. */
  participants: string[];
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A new workshop: next week at the next full hour, for an hour and a half. */
export function emptyWorkshopValues(now: Date = new Date()): WorkshopFormValues {
  const start = new Date(now);
  start.setDate(start.getDate() + 7);
  start.setMinutes(0, 0, 0);
  start.setHours(start.getHours() + 1);
  const end = new Date(start.getTime() + 90 * 60_000);
  const local = (date: Date) =>
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
  return {
    title: '',
    description: '',
    location: '',
    starts_at: local(start),
    ends_at: local(end),
    skill: null,
    participants: [],
  };
}

export function workshopValues(workshop: Workshop): WorkshopFormValues {
  return {
    title: workshop.title,
    description: workshop.description,
    location: workshop.location,
    starts_at: toLocalInput(workshop.starts_at),
    ends_at: toLocalInput(workshop.ends_at),
    skill: workshop.skill_id === null ? null : String(workshop.skill_id),
    participants: workshop.participants.map((participant) => String(participant.user.id)),
  };
}

/**
 * The request body: people still invited keep the status they had (attended, absent), new ones are
 * invited. Dates become ISO instants; an unreadable one is left empty for the server to refuse.
 */
export function toWorkshopBody(
  values: WorkshopFormValues,
  courseId: number,
  previous: Workshop | null,
): WorkshopCreate {
  const statuses = new Map<number, WorkshopStatus>(
    (previous?.participants ?? []).map((participant) => [participant.user.id, participant.status]),
  );
  return {
    course: courseId,
    title: values.title.trim(),
    description: values.description,
    location: values.location.trim(),
    starts_at: fromLocalInput(values.starts_at) ?? '',
    ends_at: fromLocalInput(values.ends_at) ?? '',
    skill: values.skill === null ? null : Number(values.skill),
    participants: values.participants.map((id) => ({
      user: Number(id),
      status: statuses.get(Number(id)) ?? 'invited',
    })),
  };
}

/** The participants with one person's status changed, as PATCH `participants` wants them (the whole list). */
export function withStatus(
  workshop: Workshop,
  userId: number,
  status: WorkshopStatus,
): { user: number; status: WorkshopStatus }[] {
  return workshop.participants.map((participant) => ({
    user: participant.user.id,
    status: participant.user.id === userId ? status : participant.status,
  }));
}
