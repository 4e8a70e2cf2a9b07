CREATE TABLE "contas_locais" (
	"usuario_id" text PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"senha_hash" text NOT NULL,
	"data_atualizacao" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tentativas_login" (
	"id" serial PRIMARY KEY NOT NULL,
	"chave" text NOT NULL,
	"momento" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contas_locais" ADD CONSTRAINT "contas_locais_usuario_id_usuarios_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."usuarios"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "contas_locais_username" ON "contas_locais" USING btree (lower("username"));--> statement-breakpoint
CREATE INDEX "tentativas_login_chave_momento" ON "tentativas_login" USING btree ("chave","momento");