ALTER TABLE "assinaturas" ALTER COLUMN "hora" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "assinaturas" ADD COLUMN "intervalo_horas" integer;--> statement-breakpoint
ALTER TABLE "assinaturas" ADD COLUMN "atualizacoes_desde" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "assinaturas" ADD COLUMN "atualizacao_enfileirada_em" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "assinaturas_apos_atualizacao" ON "assinaturas" USING btree ("painel_id") WHERE "assinaturas"."ativa" and "assinaturas"."frequencia" = 'apos-atualizacao';