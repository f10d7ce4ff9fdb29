ALTER TABLE "audit_events" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
ALTER TABLE "qc_batches" ADD COLUMN "workspace_id" uuid;--> statement-breakpoint
-- A batch checks the images of one workspace's library: it belongs to the workspace of its images. One whose
-- images were all deleted goes to its owner's personal workspace, where every batch was before workspaces.
UPDATE "qc_batches" SET "workspace_id" = "uploads"."workspace_id" FROM "qc_batch_items", "uploads" WHERE "qc_batch_items"."batch_id" = "qc_batches"."id" AND "uploads"."id" = "qc_batch_items"."upload_id";--> statement-breakpoint
UPDATE "qc_batches" SET "workspace_id" = "workspaces"."id" FROM "workspaces" WHERE "qc_batches"."workspace_id" IS NULL AND "workspaces"."personal_owner_id" = "qc_batches"."owner_id";--> statement-breakpoint
-- Left: a batch with no image left whose owner has no personal workspace; it has no results to show.
DELETE FROM "qc_batches" WHERE "workspace_id" IS NULL;--> statement-breakpoint
ALTER TABLE "qc_batches" ALTER COLUMN "workspace_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_batches" ADD CONSTRAINT "qc_batches_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_workspace_created_idx" ON "audit_events" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "qc_batches_workspace_created_idx" ON "qc_batches" USING btree ("workspace_id","created_at");--> statement-breakpoint
-- Past events go to the workspace they name, or to the workspace of the image they name while it still
-- exists. A deleted image's events (its deletion among them) name no workspace that can be known: they stay
-- account events, outside every workspace's log.
UPDATE "audit_events" SET "workspace_id" = "workspaces"."id" FROM "workspaces" WHERE "workspaces"."id"::text = "audit_events"."detail"->>'workspace_id';--> statement-breakpoint
UPDATE "audit_events" SET "workspace_id" = "uploads"."workspace_id" FROM "uploads" WHERE "audit_events"."workspace_id" IS NULL AND "uploads"."stored_filename" = "audit_events"."detail"->>'stored_filename';--> statement-breakpoint
-- A past sign-in is shown in each workspace its user was a member of at that moment (the typed e-mail left out).
INSERT INTO "audit_events" ("user_id", "workspace_id", "action", "ip", "detail", "created_at") SELECT "audit_events"."user_id", "workspace_members"."workspace_id", "audit_events"."action", "audit_events"."ip", "audit_events"."detail" - 'email', "audit_events"."created_at" FROM "audit_events" JOIN "workspace_members" ON "workspace_members"."user_id" = "audit_events"."user_id" AND "workspace_members"."created_at" <= "audit_events"."created_at" WHERE "audit_events"."workspace_id" IS NULL AND "audit_events"."action" IN ('auth.login', 'auth.login_failed');
