CREATE TABLE "precheck_runs" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "precheck_runs_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" integer NOT NULL,
	"assignment_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "evaluations" ADD COLUMN "items" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "test_cases" ADD COLUMN "test_file_name" text DEFAULT 'test_main.py' NOT NULL;--> statement-breakpoint
ALTER TABLE "test_cases" ADD COLUMN "test_code" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "precheck_runs" ADD CONSTRAINT "precheck_runs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "precheck_runs" ADD CONSTRAINT "precheck_runs_assignment_id_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "precheck_runs_user_idx" ON "precheck_runs" USING btree ("user_id","assignment_id","created_at");