DROP INDEX "uploads_workspace_created_idx";--> statement-breakpoint
CREATE INDEX "uploads_workspace_created_id_idx" ON "uploads" USING btree ("workspace_id","created_at","id");