CREATE TABLE "auditoria" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"momento" timestamp with time zone DEFAULT now() NOT NULL,
	"usuario_id" text,
	"usuario" text,
	"endereco" text,
	"objeto" text NOT NULL,
	"objeto_id" text,
	"objeto_nome" text,
	"acao" text NOT NULL,
	"mudancas" jsonb DEFAULT '[]' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ultimos_logins" (
	"usuario_id" text PRIMARY KEY NOT NULL,
	"momento" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "visualizacoes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"momento" timestamp with time zone NOT NULL,
	"usuario_id" text,
	"painel_id" integer NOT NULL,
	"identidade" text,
	"papeis" text[] DEFAULT '{}' NOT NULL,
	"request_id" text,
	"token_do_cache" boolean NOT NULL,
	"quantidade" integer DEFAULT 1 NOT NULL,
	"carregado_ms" integer,
	"renderizado_ms" integer,
	"erros" text[] DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
ALTER TABLE "ultimos_logins" ADD CONSTRAINT "ultimos_logins_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auditoria_usuario" ON "auditoria" USING btree ("usuario_id","id");--> statement-breakpoint
CREATE INDEX "auditoria_objeto" ON "auditoria" USING btree ("objeto","id");--> statement-breakpoint
CREATE INDEX "auditoria_acao" ON "auditoria" USING btree ("acao","id");--> statement-breakpoint
CREATE INDEX "ultimos_logins_momento" ON "ultimos_logins" USING btree ("momento");--> statement-breakpoint
CREATE INDEX "visualizacoes_momento" ON "visualizacoes" USING btree ("momento");--> statement-breakpoint
CREATE INDEX "visualizacoes_painel_momento" ON "visualizacoes" USING btree ("painel_id","momento");