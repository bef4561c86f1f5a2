CREATE TABLE "forum_course_stats" (
	"course_id" integer PRIMARY KEY NOT NULL,
	"topics" integer DEFAULT 0 NOT NULL,
	"announcements" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forum_files" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "forum_files_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"record_id" integer,
	"uploaded_by" integer NOT NULL,
	"storage_key" text NOT NULL,
	"filename" text NOT NULL,
	"size" integer NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forum_reads" (
	"user_id" integer NOT NULL,
	"record_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forum_reads_record_id_user_id_pk" PRIMARY KEY("record_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "forum_records" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "forum_records_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"parent_id" integer,
	"author_id" integer NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"content" text NOT NULL,
	"is_announcement" boolean DEFAULT false NOT NULL,
	"pinned" boolean DEFAULT false NOT NULL,
	"scheduled_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"upvotes" integer DEFAULT 0 NOT NULL,
	"comment_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" integer,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "forum_upvotes" (
	"record_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "forum_upvotes_record_id_user_id_pk" PRIMARY KEY("record_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "forum_course_stats" ADD CONSTRAINT "forum_course_stats_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_files" ADD CONSTRAINT "forum_files_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_files" ADD CONSTRAINT "forum_files_record_id_forum_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."forum_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_files" ADD CONSTRAINT "forum_files_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reads" ADD CONSTRAINT "forum_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reads" ADD CONSTRAINT "forum_reads_record_id_forum_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."forum_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_reads" ADD CONSTRAINT "forum_reads_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_records" ADD CONSTRAINT "forum_records_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_records" ADD CONSTRAINT "forum_records_parent_id_forum_records_id_fk" FOREIGN KEY ("parent_id") REFERENCES "public"."forum_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_records" ADD CONSTRAINT "forum_records_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_records" ADD CONSTRAINT "forum_records_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_upvotes" ADD CONSTRAINT "forum_upvotes_record_id_forum_records_id_fk" FOREIGN KEY ("record_id") REFERENCES "public"."forum_records"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "forum_upvotes" ADD CONSTRAINT "forum_upvotes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "forum_files_record_idx" ON "forum_files" USING btree ("record_id");--> statement-breakpoint
CREATE INDEX "forum_files_tray_idx" ON "forum_files" USING btree ("uploaded_by","course_id") WHERE "forum_files"."record_id" IS NULL;--> statement-breakpoint
CREATE INDEX "forum_reads_user_course_idx" ON "forum_reads" USING btree ("user_id","course_id");--> statement-breakpoint
CREATE INDEX "forum_records_list_idx" ON "forum_records" USING btree ("course_id","pinned" DESC NULLS LAST,"created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "forum_records"."parent_id" IS NULL AND "forum_records"."published_at" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "forum_records_announcements_idx" ON "forum_records" USING btree ("course_id","pinned" DESC NULLS LAST,"created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE "forum_records"."parent_id" IS NULL AND "forum_records"."published_at" IS NOT NULL AND "forum_records"."is_announcement";--> statement-breakpoint
CREATE INDEX "forum_records_scheduled_idx" ON "forum_records" USING btree ("scheduled_at") WHERE "forum_records"."published_at" IS NULL;--> statement-breakpoint
CREATE INDEX "forum_records_parent_idx" ON "forum_records" USING btree ("parent_id","created_at","id");--> statement-breakpoint
CREATE INDEX "forum_records_author_idx" ON "forum_records" USING btree ("author_id","course_id");--> statement-breakpoint
CREATE INDEX "forum_records_updated_by_idx" ON "forum_records" USING btree ("updated_by","course_id");--> statement-breakpoint
CREATE INDEX "forum_records_search_idx" ON "forum_records" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "forum_upvotes_user_idx" ON "forum_upvotes" USING btree ("user_id");