CREATE TABLE "data_exports" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "data_exports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"storage_key" text,
	"size" bigint,
	"attempts" integer DEFAULT 0 NOT NULL,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "user_erasures" (
	"id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "user_erasures_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"user_id" integer,
	"pseudonym" text NOT NULL,
	"actor_id" integer,
	"actor_email" text NOT NULL,
	"erased_at" timestamp with time zone DEFAULT now() NOT NULL,
	"kept_grades" boolean NOT NULL,
	"forum_text" text NOT NULL,
	"rows" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"files" integer DEFAULT 0 NOT NULL,
	"files_failed" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_erasures" ADD CONSTRAINT "user_erasures_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_erasures" ADD CONSTRAINT "user_erasures_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_exports_user_idx" ON "data_exports" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "data_exports_one_open_key" ON "data_exports" USING btree ("user_id") WHERE status in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "data_exports_ready_expiry_idx" ON "data_exports" USING btree ("expires_at") WHERE status = 'ready';--> statement-breakpoint
CREATE UNIQUE INDEX "user_erasures_user_key" ON "user_erasures" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_erasures_erased_idx" ON "user_erasures" USING btree ("erased_at");