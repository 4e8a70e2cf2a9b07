CREATE TABLE "versoes_dados" (
	"nome" text PRIMARY KEY NOT NULL,
	"versao" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
DROP INDEX "usuarios_ativos_nome";--> statement-breakpoint
ALTER TABLE "usuarios" ADD COLUMN "nome_ordenacao" text GENERATED ALWAYS AS (lower(translate(display_name, 'ÁÀÂÃÄÅáàâãäåÉÈÊËéèêëÍÌÎÏíìîïÓÒÔÕÖóòôõöÚÙÛÜúùûüÇçÑñÝýÿ', 'AAAAAAaaaaaaEEEEeeeeIIIIiiiiOOOOOoooooUUUUuuuuCcNnYyy'))) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "usuarios_ativos_nome" ON "usuarios" USING btree ("active","nome_ordenacao","id");--> statement-breakpoint
INSERT INTO "versoes_dados" ("nome", "versao") VALUES ('paineis', 0), ('usuarios', 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_versao_dados"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "versoes_dados" SET "versao" = "versao" + 1 WHERE "nome" = TG_ARGV[0];
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "paineis_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "paineis"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('paineis');--> statement-breakpoint
CREATE TRIGGER "classificacoes_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "classificacoes"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('paineis');--> statement-breakpoint
CREATE TRIGGER "usuarios_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "usuarios"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('usuarios');
