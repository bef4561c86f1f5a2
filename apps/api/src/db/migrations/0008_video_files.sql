ALTER TABLE "videos" ADD COLUMN "storage_key" text;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "file_size" bigint;--> statement-breakpoint
ALTER TABLE "videos" ADD COLUMN "content_type" text;