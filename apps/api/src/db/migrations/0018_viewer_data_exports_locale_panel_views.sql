CREATE TABLE "exportacoes_dados" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"momento" timestamp with time zone DEFAULT now() NOT NULL,
	"usuario_id" text,
	"painel_id" integer NOT NULL,
	"pagina" text NOT NULL,
	"visual" text NOT NULL,
	"titulo_visual" text,
	"tipo" text NOT NULL,
	"linhas" integer NOT NULL
);
--> statement-breakpoint
DROP INDEX "visoes_salvas_nome_unico";--> statement-breakpoint
ALTER TABLE "paineis" ADD COLUMN "permite_exportar_dados" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "paineis" ADD COLUMN "idioma" text;--> statement-breakpoint
ALTER TABLE "visoes_salvas" ADD COLUMN "do_painel" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "exportacoes_dados_momento" ON "exportacoes_dados" USING btree ("momento");--> statement-breakpoint
CREATE INDEX "exportacoes_dados_painel" ON "exportacoes_dados" USING btree ("painel_id","momento");--> statement-breakpoint
CREATE UNIQUE INDEX "visoes_salvas_do_painel_nome_unico" ON "visoes_salvas" USING btree ("painel_id",lower("nome")) WHERE "visoes_salvas"."do_painel";--> statement-breakpoint
CREATE UNIQUE INDEX "visoes_salvas_nome_unico" ON "visoes_salvas" USING btree ("usuario_id","painel_id",lower("nome")) WHERE not "visoes_salvas"."do_painel";