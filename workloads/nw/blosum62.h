/* SPDX-License-Identifier: MIT */
/*
 * blosum62.h - the BLOSUM62 substitution matrix (Henikoff & Henikoff, 1992),
 * in the 24-symbol order Rodinia's nw indexes it by: the 20 amino acids
 * A R N D C Q E G H I L K M F P S T W Y V, then B (D or N), Z (E or Q),
 * X (any) and * (stop).
 */
#ifndef NW_BLOSUM62_H
#define NW_BLOSUM62_H

#define NW_BLOSUM62_SYMBOLS 24

/* Symbol order of the rows and columns, as one string. */
extern const char nw_blosum62_order[NW_BLOSUM62_SYMBOLS + 1];
extern const int nw_blosum62[NW_BLOSUM62_SYMBOLS][NW_BLOSUM62_SYMBOLS];

/* Score of two symbols given as letters of nw_blosum62_order; 0 with *ok
 * false when either letter is not one of them. */
int nw_blosum62_score(char a, char b, int *ok);

#endif
