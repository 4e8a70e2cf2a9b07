CREATE TABLE "estado_sincronizacao" (
	"nome" text PRIMARY KEY NOT NULL,
	"valor" text NOT NULL,
	"data_atualizacao" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "grupo_membros" (
	"grupo_id" text NOT NULL,
	"membro_id" text NOT NULL,
	"membro_tipo" text NOT NULL,
	CONSTRAINT "grupo_membros_grupo_id_membro_id_pk" PRIMARY KEY("grupo_id","membro_id")
);
--> statement-breakpoint
CREATE TABLE "grupos" (
	"id" text PRIMARY KEY NOT NULL,
	"nome" text NOT NULL,
	"descricao" text,
	"tipo" text NOT NULL,
	"data_atualizacao" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "painel_grupos" (
	"painel_id" integer NOT NULL,
	"grupo_id" text NOT NULL,
	CONSTRAINT "painel_grupos_painel_id_grupo_id_pk" PRIMARY KEY("painel_id","grupo_id")
);
--> statement-breakpoint
ALTER TABLE "grupo_membros" ADD CONSTRAINT "grupo_membros_grupo_id_grupos_id_fk" FOREIGN KEY ("grupo_id") REFERENCES "public"."grupos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "painel_grupos" ADD CONSTRAINT "painel_grupos_painel_id_paineis_id_fk" FOREIGN KEY ("painel_id") REFERENCES "public"."paineis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "painel_grupos" ADD CONSTRAINT "painel_grupos_grupo_id_grupos_id_fk" FOREIGN KEY ("grupo_id") REFERENCES "public"."grupos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "grupo_membros_membro" ON "grupo_membros" USING btree ("membro_id");--> statement-breakpoint
CREATE INDEX "grupos_nome" ON "grupos" USING btree (lower("nome"));--> statement-breakpoint
CREATE INDEX "painel_grupos_grupo" ON "painel_grupos" USING btree ("grupo_id");--> statement-breakpoint
-- Pushed to every instance like the other cached sets (docs/decisions/009-in-memory-reads.md): the groups and their
-- members as one set, and a panel's group links with its person links, since both decide who may open it.
INSERT INTO "versoes_dados" ("nome", "versao") VALUES ('grupos', 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE TRIGGER "grupos_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "grupos"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('grupos');--> statement-breakpoint
CREATE TRIGGER "grupo_membros_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "grupo_membros"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('grupos');--> statement-breakpoint
CREATE TRIGGER "painel_grupos_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "painel_grupos"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('vinculos');
