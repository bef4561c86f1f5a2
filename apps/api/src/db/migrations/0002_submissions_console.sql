CREATE UNIQUE INDEX "leaderboard_profiles_nickname_key" ON "leaderboard_profiles" USING btree (lower("nickname"));--> statement-breakpoint
CREATE INDEX "submissions_executing_idx" ON "submissions" USING btree ("started_at") WHERE status = 'Executing';--> statement-breakpoint
CREATE INDEX "submissions_graded_idx" ON "submissions" USING btree ("graded_at") WHERE graded_at IS NOT NULL;