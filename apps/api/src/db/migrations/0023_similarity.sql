CREATE TABLE "similarity_reports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "similarity_reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"assignment_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"include_course_id" integer,
	"requested_by" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"error" text,
	"input" jsonb,
	"result" jsonb,
	"submission_count" integer DEFAULT 0 NOT NULL,
	"pair_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "similarity_reports" ADD CONSTRAINT "similarity_reports_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "similarity_reports" ADD CONSTRAINT "similarity_reports_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "similarity_reports" ADD CONSTRAINT "similarity_reports_include_course_id_courses_id_fk" FOREIGN KEY ("include_course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "similarity_reports" ADD CONSTRAINT "similarity_reports_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "similarity_reports_course_idx" ON "similarity_reports" USING btree ("course_id","assignment_id","created_at");