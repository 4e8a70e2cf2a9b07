CREATE TABLE "capacidade" (
	"id" integer PRIMARY KEY NOT NULL,
	"politica" jsonb,
	"estado" text,
	"sku" text,
	"sku_base" text,
	"lido_em" timestamp with time zone,
	"mensagem" text,
	"ultima_atividade" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "capacidade_historico" (
	"id" serial PRIMARY KEY NOT NULL,
	"em" timestamp with time zone NOT NULL,
	"estado" text NOT NULL,
	"sku" text,
	"motivo" text NOT NULL,
	"pessoa" text,
	"detalhe" text
);
--> statement-breakpoint
CREATE INDEX "capacidade_historico_em" ON "capacidade_historico" USING btree ("em");