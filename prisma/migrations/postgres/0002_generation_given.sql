-- AlterTable
ALTER TABLE "Generation" ADD COLUMN     "given" TEXT;

