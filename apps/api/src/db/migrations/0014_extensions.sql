CREATE TABLE "assignment_extensions" (
	"assignment_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"due_at" timestamp with time zone NOT NULL,
	"late_until" timestamp with time zone,
	"reason" text NOT NULL,
	"granted_by" integer,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "assignment_extensions_assignment_id_course_id_user_id_pk" PRIMARY KEY("assignment_id","course_id","user_id"),
	CONSTRAINT "assignment_extensions_late_after_due" CHECK ("assignment_extensions"."late_until" is null or "assignment_extensions"."late_until" >= "assignment_extensions"."due_at")
);
--> statement-breakpoint
CREATE TABLE "extension_audit" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "extension_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"item_title" text NOT NULL,
	"user_id" integer,
	"user_email" text NOT NULL,
	"action" text NOT NULL,
	"before" jsonb,
	"after" jsonb,
	"reason" text NOT NULL,
	"actor_id" integer,
	"actor_email" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quiz_extensions" (
	"quiz_course_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"closes_at" timestamp with time zone,
	"extra_minutes" integer,
	"reason" text NOT NULL,
	"granted_by" integer,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "quiz_extensions_quiz_course_id_user_id_pk" PRIMARY KEY("quiz_course_id","user_id"),
	CONSTRAINT "quiz_extensions_something" CHECK ("quiz_extensions"."closes_at" is not null or "quiz_extensions"."extra_minutes" is not null)
);
--> statement-breakpoint
ALTER TABLE "assignment_extensions" ADD CONSTRAINT "assignment_extensions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_extensions" ADD CONSTRAINT "assignment_extensions_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assignment_extensions" ADD CONSTRAINT "assignment_extensions_assignment_course_fk" FOREIGN KEY ("assignment_id","course_id") REFERENCES "public"."assignment_courses"("assignment_id","course_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extension_audit" ADD CONSTRAINT "extension_audit_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extension_audit" ADD CONSTRAINT "extension_audit_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "extension_audit" ADD CONSTRAINT "extension_audit_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_extensions" ADD CONSTRAINT "quiz_extensions_quiz_course_id_quiz_courses_id_fk" FOREIGN KEY ("quiz_course_id") REFERENCES "public"."quiz_courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_extensions" ADD CONSTRAINT "quiz_extensions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "quiz_extensions" ADD CONSTRAINT "quiz_extensions_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assignment_extensions_course_idx" ON "assignment_extensions" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "assignment_extensions_user_idx" ON "assignment_extensions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "extension_audit_course_idx" ON "extension_audit" USING btree ("course_id","id");--> statement-breakpoint
CREATE INDEX "quiz_extensions_user_idx" ON "quiz_extensions" USING btree ("user_id");