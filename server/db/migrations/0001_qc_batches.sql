CREATE TABLE "qc_batch_items" (
	"batch_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"upload_id" uuid NOT NULL,
	"stored_filename" text NOT NULL,
	"original_name" text NOT NULL,
	"sha256" text NOT NULL,
	"format" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"result_id" uuid,
	"error" text,
	CONSTRAINT "qc_batch_items_pk" PRIMARY KEY("batch_id","position")
);
--> statement-breakpoint
CREATE TABLE "qc_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"status" text NOT NULL,
	"scope" text NOT NULL,
	"query" text,
	"lease_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "qc_batch_items" ADD CONSTRAINT "qc_batch_items_batch_id_qc_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."qc_batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_batch_items" ADD CONSTRAINT "qc_batch_items_upload_id_uploads_id_fk" FOREIGN KEY ("upload_id") REFERENCES "public"."uploads"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_batch_items" ADD CONSTRAINT "qc_batch_items_result_id_qc_results_id_fk" FOREIGN KEY ("result_id") REFERENCES "public"."qc_results"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "qc_batches" ADD CONSTRAINT "qc_batches_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "qc_batch_items_pending_idx" ON "qc_batch_items" USING btree ("batch_id","status","position");--> statement-breakpoint
CREATE INDEX "qc_batch_items_upload_idx" ON "qc_batch_items" USING btree ("upload_id");--> statement-breakpoint
CREATE INDEX "qc_batches_owner_created_idx" ON "qc_batches" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "qc_batches_status_idx" ON "qc_batches" USING btree ("status");