ALTER TABLE "usuarios" ADD COLUMN "role_source" text;--> statement-breakpoint
-- Admins who came from a Microsoft sign-in got the role from the Entra app role or ADMIN_EMAILS; the start-up marks
-- ADMIN_EMAILS again as 'config', so what remains follows Entra from now on.
UPDATE "usuarios" SET "role_source" = 'entra' WHERE "role" = 'Admin' AND "source" = 'entra';
