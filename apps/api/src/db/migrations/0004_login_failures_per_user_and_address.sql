-- Rows were keyed 'usuario:<name>' or 'ip:<address>' and cannot become (username, address) pairs; they are
-- at most an hour old and only count failures, so they are dropped.
DELETE FROM "tentativas_login";--> statement-breakpoint
DROP INDEX "tentativas_login_chave_momento";--> statement-breakpoint
ALTER TABLE "tentativas_login" ADD COLUMN "usuario" text NOT NULL;--> statement-breakpoint
ALTER TABLE "tentativas_login" ADD COLUMN "endereco" text NOT NULL;--> statement-breakpoint
CREATE INDEX "tentativas_login_usuario_momento" ON "tentativas_login" USING btree ("usuario","momento");--> statement-breakpoint
CREATE INDEX "tentativas_login_endereco_momento" ON "tentativas_login" USING btree ("endereco","momento");--> statement-breakpoint
ALTER TABLE "tentativas_login" DROP COLUMN "chave";