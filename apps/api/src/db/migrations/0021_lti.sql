CREATE TABLE "lti_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"platform_id" integer NOT NULL,
	"user_id" integer,
	"payload" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_context_members" (
	"context_row_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"role" text NOT NULL,
	"last_launch_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_context_members_context_row_id_user_id_pk" PRIMARY KEY("context_row_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lti_contexts" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lti_contexts_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"platform_id" integer NOT NULL,
	"deployment_id" text NOT NULL,
	"context_id" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"course_id" integer,
	"line_items_url" text,
	"ags_scopes" text[] DEFAULT '{}'::text[] NOT NULL,
	"memberships_url" text,
	"roster_synced_at" timestamp with time zone,
	"roster_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_deep_links" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"context_row_id" integer,
	"deployment_id" text NOT NULL,
	"settings" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_launch_states" (
	"state" text PRIMARY KEY NOT NULL,
	"platform_id" integer NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_line_items" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lti_line_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"context_row_id" integer NOT NULL,
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"url" text NOT NULL,
	"label" text DEFAULT '' NOT NULL,
	"score_maximum" real,
	"checked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_nonces_seen" (
	"platform_id" integer NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lti_nonces_seen_platform_id_nonce_pk" PRIMARY KEY("platform_id","nonce")
);
--> statement-breakpoint
CREATE TABLE "lti_platforms" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lti_platforms_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"auth_url" text NOT NULL,
	"token_url" text NOT NULL,
	"jwks_url" text NOT NULL,
	"deployment_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"frame_origins" text[] DEFAULT '{}'::text[] NOT NULL,
	"allow_staff" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"source" text DEFAULT 'manual' NOT NULL,
	"product" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_registration_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lti_scores" (
	"line_item_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"score" real NOT NULL,
	"status" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lti_scores_line_item_id_user_id_pk" PRIMARY KEY("line_item_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "lti_tool_keys" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lti_tool_keys_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"kid" text NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"private_jwk_enc" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"retired_at" timestamp with time zone,
	CONSTRAINT "lti_tool_keys_kid_unique" UNIQUE("kid")
);
--> statement-breakpoint
CREATE TABLE "lti_users" (
	"platform_id" integer NOT NULL,
	"sub" text NOT NULL,
	"user_id" integer NOT NULL,
	"email" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_launch_at" timestamp with time zone,
	CONSTRAINT "lti_users_platform_id_sub_pk" PRIMARY KEY("platform_id","sub")
);
--> statement-breakpoint
ALTER TABLE "lti_codes" ADD CONSTRAINT "lti_codes_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_codes" ADD CONSTRAINT "lti_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_context_members" ADD CONSTRAINT "lti_context_members_context_row_id_lti_contexts_id_fk" FOREIGN KEY ("context_row_id") REFERENCES "public"."lti_contexts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_context_members" ADD CONSTRAINT "lti_context_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_contexts" ADD CONSTRAINT "lti_contexts_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_contexts" ADD CONSTRAINT "lti_contexts_course_id_courses_id_fk" FOREIGN KEY ("course_id") REFERENCES "public"."courses"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_deep_links" ADD CONSTRAINT "lti_deep_links_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_deep_links" ADD CONSTRAINT "lti_deep_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_deep_links" ADD CONSTRAINT "lti_deep_links_context_row_id_lti_contexts_id_fk" FOREIGN KEY ("context_row_id") REFERENCES "public"."lti_contexts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_launch_states" ADD CONSTRAINT "lti_launch_states_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_line_items" ADD CONSTRAINT "lti_line_items_context_row_id_lti_contexts_id_fk" FOREIGN KEY ("context_row_id") REFERENCES "public"."lti_contexts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_nonces_seen" ADD CONSTRAINT "lti_nonces_seen_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_registration_tokens" ADD CONSTRAINT "lti_registration_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_scores" ADD CONSTRAINT "lti_scores_line_item_id_lti_line_items_id_fk" FOREIGN KEY ("line_item_id") REFERENCES "public"."lti_line_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_scores" ADD CONSTRAINT "lti_scores_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_users" ADD CONSTRAINT "lti_users_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "public"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lti_users" ADD CONSTRAINT "lti_users_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lti_codes_expires_idx" ON "lti_codes" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "lti_context_members_user_idx" ON "lti_context_members" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_contexts_platform_context_key" ON "lti_contexts" USING btree ("platform_id","deployment_id","context_id");--> statement-breakpoint
CREATE INDEX "lti_contexts_course_idx" ON "lti_contexts" USING btree ("course_id");--> statement-breakpoint
CREATE INDEX "lti_deep_links_expires_idx" ON "lti_deep_links" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "lti_launch_states_expires_idx" ON "lti_launch_states" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_line_items_context_url_key" ON "lti_line_items" USING btree ("context_row_id","url");--> statement-breakpoint
CREATE INDEX "lti_line_items_item_idx" ON "lti_line_items" USING btree ("kind","item_id");--> statement-breakpoint
CREATE INDEX "lti_nonces_seen_expires_idx" ON "lti_nonces_seen" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_platforms_issuer_client_key" ON "lti_platforms" USING btree ("issuer","client_id");--> statement-breakpoint
CREATE INDEX "lti_scores_status_idx" ON "lti_scores" USING btree ("status");--> statement-breakpoint
CREATE INDEX "lti_users_user_idx" ON "lti_users" USING btree ("user_id");