-- AlterTable
ALTER TABLE "Generation" ADD COLUMN "ordinal" INTEGER;
