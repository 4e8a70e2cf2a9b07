-- Every cached data set is pushed to the API instances instead of polled (docs/decisions/009-in-memory-reads.md):
-- the version bump also notifies channel 'versoes_dados' with "<set>:<version>", which PostgreSQL delivers to
-- every listening instance when the transaction commits (PGlite, to its own process). Three more sets: the
-- panels' links, their RLS roles, and revoked session tokens.
INSERT INTO "versoes_dados" ("nome", "versao") VALUES ('vinculos', 0), ('rls', 0), ('revogacoes', 0) ON CONFLICT DO NOTHING;--> statement-breakpoint
CREATE OR REPLACE FUNCTION "bump_versao_dados"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  nova bigint;
BEGIN
  UPDATE "versoes_dados" SET "versao" = "versao" + 1 WHERE "nome" = TG_ARGV[0] RETURNING "versao" INTO nova;
  PERFORM pg_notify('versoes_dados', TG_ARGV[0] || ':' || nova);
  RETURN NULL;
END;
$$;--> statement-breakpoint
CREATE TRIGGER "painel_usuarios_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "painel_usuarios"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('vinculos');--> statement-breakpoint
CREATE TRIGGER "painel_rls_roles_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "painel_rls_roles"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('rls');--> statement-breakpoint
CREATE TRIGGER "painel_rls_role_emails_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "painel_rls_role_emails"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('rls');--> statement-breakpoint
CREATE TRIGGER "tokens_revogados_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "tokens_revogados"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('revogacoes');
