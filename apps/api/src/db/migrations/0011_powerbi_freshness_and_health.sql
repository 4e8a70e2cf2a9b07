CREATE TABLE "datasets_atualizacao" (
	"dataset_id" text PRIMARY KEY NOT NULL,
	"status" text NOT NULL,
	"ultima_atualizacao" timestamp with time zone,
	"ultima_tentativa" timestamp with time zone,
	"mensagem" text,
	"lido_em" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "painel_datasets" (
	"painel_id" integer PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"report_id" text NOT NULL,
	"dataset_id" text,
	"dataset_workspace_id" text
);
--> statement-breakpoint
CREATE TABLE "painel_saude" (
	"painel_id" integer PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"report_id" text NOT NULL,
	"estado" text NOT NULL,
	"mensagem" text,
	"verificado_em" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "rodadas_powerbi" (
	"nome" text PRIMARY KEY NOT NULL,
	"ocupada_ate" timestamp with time zone DEFAULT '-infinity' NOT NULL,
	"iniciada_em" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "painel_datasets" ADD CONSTRAINT "painel_datasets_painel_id_paineis_id_fk" FOREIGN KEY ("painel_id") REFERENCES "public"."paineis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "painel_saude" ADD CONSTRAINT "painel_saude_painel_id_paineis_id_fk" FOREIGN KEY ("painel_id") REFERENCES "public"."paineis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "painel_datasets_dataset" ON "painel_datasets" USING btree ("dataset_id");--> statement-breakpoint
-- The two background rounds over Power BI, each claimed by one instance at a time (freshness.ts, panel-health.ts).
INSERT INTO "rodadas_powerbi" ("nome") VALUES ('atualizacoes'), ('saude') ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Pushed to every instance like the other cached sets (docs/decisions/009-in-memory-reads.md): the panels' last
-- refreshes, and their health, which every opening of a panel consults.
INSERT INTO "versoes_dados" ("nome", "versao") VALUES ('atualizacoes', 0), ('saude', 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE TRIGGER "painel_datasets_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "painel_datasets"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('atualizacoes');--> statement-breakpoint
CREATE TRIGGER "datasets_atualizacao_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "datasets_atualizacao"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('atualizacoes');--> statement-breakpoint
CREATE TRIGGER "painel_saude_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "painel_saude"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('saude');
