CREATE TABLE "regrade_requests" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "regrade_requests_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"review_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"rubric_item_id" integer,
	"comment_id" integer,
	"reason" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"answer" text DEFAULT '' NOT NULL,
	"answered_by" integer,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_audit" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "review_audit_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"assignment_id" integer NOT NULL,
	"submission_id" integer,
	"actor_id" integer,
	"actor_email" text NOT NULL,
	"action" text NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_comments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "review_comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"review_id" integer NOT NULL,
	"parent_id" integer,
	"author_id" integer,
	"filename" text NOT NULL,
	"line_start" integer NOT NULL,
	"line_end" integer NOT NULL,
	"body" text NOT NULL,
	"rubric_item_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_items" (
	"review_id" integer NOT NULL,
	"rubric_item_id" integer NOT NULL,
	CONSTRAINT "review_items_review_id_rubric_item_id_pk" PRIMARY KEY("review_id","rubric_item_id")
);
--> statement-breakpoint
CREATE TABLE "review_settings" (
	"assignment_id" integer PRIMARY KEY NOT NULL,
	"autograde_weight" double precision DEFAULT 1 NOT NULL,
	"rubric_weight" double precision DEFAULT 1 NOT NULL,
	"rubric_max" double precision DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reviews" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reviews_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"submission_id" integer NOT NULL,
	"assignment_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"rubric_points" double precision DEFAULT 0 NOT NULL,
	"adjustment" double precision DEFAULT 0 NOT NULL,
	"adjustment_reason" text DEFAULT '' NOT NULL,
	"comment" text DEFAULT '' NOT NULL,
	"grader_id" integer,
	"graded_at" timestamp with time zone,
	"released_at" timestamp with time zone,
	"released_by" integer,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rubric_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "rubric_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"assignment_id" integer NOT NULL,
	"group_title" text DEFAULT '' NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"points" double precision NOT NULL,
	"position" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "saved_comments" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "saved_comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"rubric_item_id" integer,
	"uses" integer DEFAULT 0 NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_rubric_item_id_rubric_items_id_fk" FOREIGN KEY ("rubric_item_id") REFERENCES "public"."rubric_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_comment_id_review_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."review_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "regrade_requests" ADD CONSTRAINT "regrade_requests_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_audit" ADD CONSTRAINT "review_audit_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_audit" ADD CONSTRAINT "review_audit_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_comments" ADD CONSTRAINT "review_comments_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_comments" ADD CONSTRAINT "review_comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_comments" ADD CONSTRAINT "review_comments_rubric_item_id_rubric_items_id_fk" FOREIGN KEY ("rubric_item_id") REFERENCES "public"."rubric_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_comments" ADD CONSTRAINT "review_comments_parent_id_review_comments_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."review_comments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_review_id_reviews_id_fk" FOREIGN KEY ("review_id") REFERENCES "public"."reviews"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_items" ADD CONSTRAINT "review_items_rubric_item_id_rubric_items_id_fk" FOREIGN KEY ("rubric_item_id") REFERENCES "public"."rubric_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_settings" ADD CONSTRAINT "review_settings_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_submission_id_submissions_id_fk" FOREIGN KEY ("submission_id") REFERENCES "public"."submissions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_grader_id_users_id_fk" FOREIGN KEY ("grader_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reviews" ADD CONSTRAINT "reviews_released_by_users_id_fk" FOREIGN KEY ("released_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "rubric_items" ADD CONSTRAINT "rubric_items_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_comments" ADD CONSTRAINT "saved_comments_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_comments" ADD CONSTRAINT "saved_comments_rubric_item_id_rubric_items_id_fk" FOREIGN KEY ("rubric_item_id") REFERENCES "public"."rubric_items"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "saved_comments" ADD CONSTRAINT "saved_comments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "regrade_requests_item_key" ON "regrade_requests" USING btree ("review_id","rubric_item_id") WHERE rubric_item_id is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "regrade_requests_comment_key" ON "regrade_requests" USING btree ("review_id","comment_id") WHERE comment_id is not null;--> statement-breakpoint
CREATE INDEX "regrade_requests_course_idx" ON "regrade_requests" USING btree ("course_id","status","created_at");--> statement-breakpoint
CREATE INDEX "review_audit_submission_idx" ON "review_audit" USING btree ("submission_id","created_at");--> statement-breakpoint
CREATE INDEX "review_audit_course_idx" ON "review_audit" USING btree ("course_id","created_at");--> statement-breakpoint
CREATE INDEX "review_comments_review_idx" ON "review_comments" USING btree ("review_id","id");--> statement-breakpoint
CREATE INDEX "review_comments_parent_idx" ON "review_comments" USING btree ("parent_id");--> statement-breakpoint
CREATE INDEX "review_items_rubric_item_idx" ON "review_items" USING btree ("rubric_item_id");--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_submission_key" ON "reviews" USING btree ("submission_id");--> statement-breakpoint
CREATE INDEX "reviews_assignment_course_idx" ON "reviews" USING btree ("assignment_id","course_id");--> statement-breakpoint
CREATE INDEX "reviews_user_idx" ON "reviews" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "rubric_items_assignment_idx" ON "rubric_items" USING btree ("assignment_id","position");--> statement-breakpoint
CREATE INDEX "saved_comments_course_idx" ON "saved_comments" USING btree ("course_id","title");