-- API processes remember the callers of live sessions (apps/api/src/lib/session-cache.ts). Whatever ends
-- a session or changes what a caller is (active, staff, e-mail) tells every process at commit, on the
-- channel kadai_auth with the user's id, whoever made the change: the API, another instance, psql.
CREATE FUNCTION "auth_actor_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('kadai_auth', 'u' || OLD."id");
  ELSE
    PERFORM pg_notify('kadai_auth', 'u' || OLD."user_id");
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "auth_sessions_changed" AFTER UPDATE OF "revoked_at", "user_id" OR DELETE ON "auth_sessions"
FOR EACH ROW EXECUTE FUNCTION "auth_actor_changed"();--> statement-breakpoint
CREATE TRIGGER "users_actor_changed" AFTER UPDATE OF "is_active", "is_staff", "email" OR DELETE ON "users"
FOR EACH ROW EXECUTE FUNCTION "auth_actor_changed"();
