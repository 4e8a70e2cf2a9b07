CREATE TABLE "painel_rls_role_grupos" (
	"role_id" integer NOT NULL,
	"grupo_id" text NOT NULL,
	CONSTRAINT "painel_rls_role_grupos_role_id_grupo_id_pk" PRIMARY KEY("role_id","grupo_id")
);
--> statement-breakpoint
ALTER TABLE "painel_rls_role_grupos" ADD CONSTRAINT "painel_rls_role_grupos_role_id_painel_rls_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."painel_rls_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "painel_rls_role_grupos" ADD CONSTRAINT "painel_rls_role_grupos_grupo_id_grupos_id_fk" FOREIGN KEY ("grupo_id") REFERENCES "public"."grupos"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "painel_rls_role_grupos_grupo" ON "painel_rls_role_grupos" USING btree ("grupo_id");--> statement-breakpoint
CREATE TRIGGER "painel_rls_role_grupos_versao" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "painel_rls_role_grupos"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_versao_dados"('rls');
