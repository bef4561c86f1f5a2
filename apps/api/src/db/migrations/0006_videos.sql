CREATE TABLE "video_settings" (
	"course_id" integer PRIMARY KEY NOT NULL,
	"completion_percent" integer DEFAULT 90 NOT NULL,
	"vimeo_source_kind" text,
	"vimeo_source_id" text
);
--> statement-breakpoint
CREATE TABLE "video_stats" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "video_stats_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"video_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"intervals" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"watched_seconds" double precision DEFAULT 0 NOT NULL,
	"last_position" double precision DEFAULT 0 NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "video_syncs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "video_syncs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"requested_by" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"missing" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "videos" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "videos_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"platform" text NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"duration_seconds" integer NOT NULL,
	"thumbnail_url" text,
	"position" integer DEFAULT 0 NOT NULL,
	"hidden" boolean DEFAULT false NOT NULL,
	"missing_from_source" boolean DEFAULT false NOT NULL,
	"source_modified_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "video_settings" ADD CONSTRAINT "video_settings_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_stats" ADD CONSTRAINT "video_stats_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_stats" ADD CONSTRAINT "video_stats_video_id_videos_id_fk" FOREIGN KEY ("video_id") REFERENCES "public"."videos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_stats" ADD CONSTRAINT "video_stats_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_syncs" ADD CONSTRAINT "video_syncs_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_syncs" ADD CONSTRAINT "video_syncs_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "videos" ADD CONSTRAINT "videos_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "video_stats_user_video_key" ON "video_stats" USING btree ("user_id","video_id");--> statement-breakpoint
CREATE INDEX "video_stats_video_idx" ON "video_stats" USING btree ("video_id");--> statement-breakpoint
CREATE INDEX "video_stats_course_user_idx" ON "video_stats" USING btree ("course_id","user_id");--> statement-breakpoint
CREATE INDEX "video_syncs_course_idx" ON "video_syncs" USING btree ("course_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "video_syncs_one_active_key" ON "video_syncs" USING btree ("course_id") WHERE status in ('queued', 'running');--> statement-breakpoint
CREATE UNIQUE INDEX "videos_course_platform_external_key" ON "videos" USING btree ("course_id","platform","external_id");--> statement-breakpoint
CREATE INDEX "videos_course_position_idx" ON "videos" USING btree ("course_id","position","id");