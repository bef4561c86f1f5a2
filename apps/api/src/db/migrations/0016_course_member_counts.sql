ALTER TABLE "courses" ADD COLUMN "student_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "courses" ADD COLUMN "editor_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- Kept by trigger (docs/performance.md, bench:api): every insert into and delete from course_students
-- and course_editors, cascades from a deleted user or course included, once per statement (adding a
-- class of 300 students updates the course once). A course deleted in the same statement is gone
-- already, and its update finds no row.
CREATE FUNCTION "course_member_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE "courses" c
    SET "student_count" = c."student_count" + CASE WHEN TG_TABLE_NAME = 'course_students' THEN d."n" ELSE 0 END,
        "editor_count" = c."editor_count" + CASE WHEN TG_TABLE_NAME = 'course_editors' THEN d."n" ELSE 0 END
    FROM (SELECT "course_id", count(*)::int AS "n" FROM "added" GROUP BY "course_id") d
    WHERE c."id" = d."course_id";
  ELSE
    UPDATE "courses" c
    SET "student_count" = c."student_count" - CASE WHEN TG_TABLE_NAME = 'course_students' THEN d."n" ELSE 0 END,
        "editor_count" = c."editor_count" - CASE WHEN TG_TABLE_NAME = 'course_editors' THEN d."n" ELSE 0 END
    FROM (SELECT "course_id", count(*)::int AS "n" FROM "removed" GROUP BY "course_id") d
    WHERE c."id" = d."course_id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "course_students_added" AFTER INSERT ON "course_students"
REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "course_member_counts"();--> statement-breakpoint
CREATE TRIGGER "course_students_removed" AFTER DELETE ON "course_students"
REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "course_member_counts"();--> statement-breakpoint
CREATE TRIGGER "course_editors_added" AFTER INSERT ON "course_editors"
REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "course_member_counts"();--> statement-breakpoint
CREATE TRIGGER "course_editors_removed" AFTER DELETE ON "course_editors"
REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "course_member_counts"();--> statement-breakpoint
UPDATE "courses" c SET
  "student_count" = (SELECT count(*)::int FROM "course_students" m WHERE m."course_id" = c."id"),
  "editor_count" = (SELECT count(*)::int FROM "course_editors" m WHERE m."course_id" = c."id");
