CREATE TABLE "workbook_configs" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workbook_configs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"course_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"lifetime_minutes" integer NOT NULL,
	"max_extension_minutes" integer NOT NULL,
	"memory_mb" integer NOT NULL,
	"cpu_seconds" integer NOT NULL,
	"starter" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workbook_notebooks" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workbook_notebooks_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"name" text NOT NULL,
	"content" jsonb NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workbook_sessions" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "workbook_sessions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"course_id" integer NOT NULL,
	"config_id" integer NOT NULL,
	"notebook_id" integer NOT NULL,
	"status" text DEFAULT 'live' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"extended_minutes" integer DEFAULT 0 NOT NULL,
	"max_extension_minutes" integer NOT NULL,
	"memory_mb" integer NOT NULL,
	"cpu_seconds" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "workbook_configs" ADD CONSTRAINT "workbook_configs_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbook_notebooks" ADD CONSTRAINT "workbook_notebooks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbook_notebooks" ADD CONSTRAINT "workbook_notebooks_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbook_notebooks" ADD CONSTRAINT "workbook_notebooks_config_id_workbook_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."workbook_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbook_sessions" ADD CONSTRAINT "workbook_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbook_sessions" ADD CONSTRAINT "workbook_sessions_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbook_sessions" ADD CONSTRAINT "workbook_sessions_config_id_workbook_configs_id_fk" FOREIGN KEY ("config_id") REFERENCES "public"."workbook_configs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workbook_sessions" ADD CONSTRAINT "workbook_sessions_notebook_id_workbook_notebooks_id_fk" FOREIGN KEY ("notebook_id") REFERENCES "public"."workbook_notebooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "workbook_configs_course_idx" ON "workbook_configs" USING btree ("course_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "workbook_notebooks_user_config_key" ON "workbook_notebooks" USING btree ("user_id","config_id");--> statement-breakpoint
CREATE UNIQUE INDEX "workbook_sessions_one_live_key" ON "workbook_sessions" USING btree ("user_id","course_id") WHERE status = 'live';--> statement-breakpoint
CREATE INDEX "workbook_sessions_course_idx" ON "workbook_sessions" USING btree ("course_id","status");--> statement-breakpoint
CREATE INDEX "workbook_sessions_live_expiry_idx" ON "workbook_sessions" USING btree ("expires_at") WHERE status = 'live';