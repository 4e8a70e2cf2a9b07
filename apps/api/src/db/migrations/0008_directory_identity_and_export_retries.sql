ALTER TABLE "exportacoes" ADD COLUMN "estado" text;--> statement-breakpoint
ALTER TABLE "exportacoes" ADD COLUMN "pagina" text;--> statement-breakpoint
ALTER TABLE "exportacoes" ADD COLUMN "tentativas" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "exportacoes" ADD COLUMN "nova_tentativa_em" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "upn" text;--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "tipo" text;--> statement-breakpoint
CREATE INDEX "usuarios_upn" ON "usuarios" USING btree (lower("upn"));