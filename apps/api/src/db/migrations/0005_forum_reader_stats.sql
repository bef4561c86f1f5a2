CREATE TABLE "forum_reader_stats" (
	"user_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"reads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "forum_reader_stats_user_id_course_id_pk" PRIMARY KEY("user_id","course_id")
);
--> statement-breakpoint
ALTER TABLE "forum_reader_stats" ADD CONSTRAINT "forum_reader_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reader_stats" ADD CONSTRAINT "forum_reader_stats_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Kept by trigger (docs/forum.md, "Counts"): every insert and delete of forum_reads, cascades included.
-- A delete only updates: when a course or a user goes, their counter row may already be gone.
CREATE FUNCTION "forum_reads_count"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "forum_reader_stats" ("user_id", "course_id", "reads") VALUES (NEW."user_id", NEW."course_id", 1)
    ON CONFLICT ("user_id", "course_id") DO UPDATE SET "reads" = "forum_reader_stats"."reads" + 1;
  ELSE
    UPDATE "forum_reader_stats" SET "reads" = "reads" - 1
    WHERE "user_id" = OLD."user_id" AND "course_id" = OLD."course_id";
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "forum_reads_count" AFTER INSERT OR DELETE ON "forum_reads"
FOR EACH ROW EXECUTE FUNCTION "forum_reads_count"();--> statement-breakpoint
INSERT INTO "forum_reader_stats" ("user_id", "course_id", "reads")
SELECT "user_id", "course_id", count(*)::int FROM "forum_reads" GROUP BY "user_id", "course_id";
