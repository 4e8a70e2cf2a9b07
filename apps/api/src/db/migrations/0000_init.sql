CREATE TABLE "classificacoes" (
	"id" serial PRIMARY KEY NOT NULL,
	"nome" text NOT NULL,
	"descricao" text,
	"ativo" boolean DEFAULT true NOT NULL,
	"data_cadastro" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "paineis" (
	"id" serial PRIMARY KEY NOT NULL,
	"nome_painel" text NOT NULL,
	"workspace_id" text NOT NULL,
	"report_id" text NOT NULL,
	"usa_rls" boolean DEFAULT false NOT NULL,
	"classificacao_id" integer,
	"ordem" integer DEFAULT 1 NOT NULL,
	"data_cadastro" timestamp with time zone DEFAULT now() NOT NULL,
	"data_atualizacao" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "painel_rls_role_emails" (
	"role_id" integer NOT NULL,
	"email" text NOT NULL,
	CONSTRAINT "painel_rls_role_emails_role_id_email_pk" PRIMARY KEY("role_id","email")
);
--> statement-breakpoint
CREATE TABLE "painel_rls_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"painel_id" integer NOT NULL,
	"role_name" text NOT NULL,
	"posicao" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "painel_usuarios" (
	"painel_id" integer NOT NULL,
	"usuario_id" text NOT NULL,
	CONSTRAINT "painel_usuarios_painel_id_usuario_id_pk" PRIMARY KEY("painel_id","usuario_id")
);
--> statement-breakpoint
CREATE TABLE "tokens_revogados" (
	"jti" text PRIMARY KEY NOT NULL,
	"expira_em" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usuarios" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"display_name" text NOT NULL,
	"department" text,
	"job_title" text,
	"office_location" text,
	"role" text DEFAULT 'User' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"source" text NOT NULL,
	"data_cadastro" timestamp with time zone DEFAULT now() NOT NULL,
	"data_atualizacao" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "paineis" ADD CONSTRAINT "paineis_classificacao_id_classificacoes_id_fk" FOREIGN KEY ("classificacao_id") REFERENCES "public"."classificacoes"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "painel_rls_role_emails" ADD CONSTRAINT "painel_rls_role_emails_role_id_painel_rls_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."painel_rls_roles"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "painel_rls_roles" ADD CONSTRAINT "painel_rls_roles_painel_id_paineis_id_fk" FOREIGN KEY ("painel_id") REFERENCES "public"."paineis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "painel_usuarios" ADD CONSTRAINT "painel_usuarios_painel_id_paineis_id_fk" FOREIGN KEY ("painel_id") REFERENCES "public"."paineis"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "painel_usuarios" ADD CONSTRAINT "painel_usuarios_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "classificacoes_nome_unico" ON "classificacoes" USING btree (lower("nome"));--> statement-breakpoint
CREATE INDEX "paineis_classificacao_ordem" ON "paineis" USING btree ("classificacao_id","ordem","id");--> statement-breakpoint
CREATE INDEX "painel_rls_role_emails_email" ON "painel_rls_role_emails" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "painel_rls_roles_nome" ON "painel_rls_roles" USING btree ("painel_id","role_name");--> statement-breakpoint
CREATE INDEX "painel_usuarios_usuario" ON "painel_usuarios" USING btree ("usuario_id");--> statement-breakpoint
CREATE INDEX "tokens_revogados_expira" ON "tokens_revogados" USING btree ("expira_em");--> statement-breakpoint
CREATE INDEX "usuarios_email" ON "usuarios" USING btree (lower("email"));--> statement-breakpoint
CREATE INDEX "usuarios_ativos_nome" ON "usuarios" USING btree ("active","display_name");